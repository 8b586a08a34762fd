"""What several test files share, imported the same way from every folder (tests/ is on sys.path: the rootdir
conftest.py is there)."""
