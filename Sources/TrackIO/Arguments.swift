import CLinux

/// The process arguments without the program name, e.g. `["decode", "a.log"]`.
///
/// Read from the C start-up hook because `CommandLine` does not exist in Embedded Swift.
public func processArguments() -> [String] {
    let argc = Int(clinux_argc())
    guard let argv = clinux_argv(), argc > 1 else { return [] }
    var result: [String] = []
    result.reserveCapacity(argc - 1)
    for index in 1..<argc {
        if let pointer = argv[index] { result.append(String(cString: pointer)) }
    }
    return result
}

/// Exits the process with `code` (0 success, 1 failure, 2 usage).
public func exitProcess(_ code: Int32) -> Never {
    exit(code)
}
