from casino_audit.cli import main

main()
