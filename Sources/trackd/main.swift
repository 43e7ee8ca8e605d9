import TrackDaemon
import TrackIO

// argv and exit codes only: the daemon lives in TrackDaemon.
exitProcess(TrackdCommand.run(processArguments()))
