import TrackIO
import TrackctlCommands

// argv and exit codes only: every command lives in TrackctlCommands.
exitProcess(TrackctlCommand.run(processArguments()))
