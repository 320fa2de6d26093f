// The MenurankCommands module.
