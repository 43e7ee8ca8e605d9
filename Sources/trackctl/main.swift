import TrackDaemon
import TrackIO

// argv and exit codes only: every command lives in TrackDaemon.
exitProcess(TrackctlCommand.run(processArguments()))
