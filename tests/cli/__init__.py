"""The command as users meet it: exit codes and outputs, the GitHub Action, the pre-commit hooks, the wheel."""
