import Foundation
import Testing
import TrackCore

/// The board files of board/ against the chips current Raspberry Pi OS kernels register
/// (Fixtures/board-kernels.tsv, from the kernel's drivers and device trees): the chip label is
/// the driver's, every line name is one the kernel gives a header line, and it is the line the
/// file's comment says (`# GPIO17, header pin 11` above `led-fix = GPIO17`: offset 17 is named
/// `GPIO17`). trackd finds lines by these names, so a name the kernel does not use is a board
/// without LEDs.
@Suite("Board files against the kernels' GPIO line names")
struct BoardFileKernelTests {
    /// One board model as a kernel sees it.
    struct Kernel: Sendable, CustomStringConvertible {
        var file: String
        var model: String
        var label: String
        var names: [String]
        var description: String { "\(file) on a \(model)" }
    }

    static let kernels: [Kernel] = {
        guard let url = Bundle.module.url(forResource: "board-kernels", withExtension: "tsv", subdirectory: "Fixtures"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 4 else { return nil }
            return Kernel(file: fields[0], model: fields[1], label: fields[2],
                          names: fields[3].split(separator: " ").map(String.init))
        }
    }()

    /// What is wrong with board file `text` on `kernel`, one line per problem; empty when nothing.
    static func problems(_ text: String, file: String, on kernel: Kernel) -> [String] {
        let map: BoardMap
        do { map = try BoardMap.parse(text, file: file) } catch { return ["\(error)"] }
        var problems: [String] = []
        if map.chip != kernel.label {
            problems.append("chip \(map.chip ?? "(none)"): the kernel's label is \(kernel.label)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for role in BoardRole.allCases {
            guard let line = map[role] else { continue }
            // The comment line right above the key names the header GPIO it is wired to.
            guard let at = lines.firstIndex(where: { $0.hasPrefix(role.key + " ") || $0.hasPrefix(role.key + "=") }),
                  at > 0, let gpio = Self.gpioNumber(in: lines[at - 1]) else {
                problems.append("\(role.key): no '# GPIOn, header pin m' comment above it")
                continue
            }
            switch line {
            case .name(let name):
                if !kernel.names.contains(name) {
                    problems.append("\(role.key) = \(name): no header line of that name (GPIO\(gpio) is \(kernel.names[safe: gpio] ?? "not a header line"))")
                } else if kernel.names[safe: gpio] != name {
                    problems.append("\(role.key) = \(name): the comment says GPIO\(gpio), which the kernel names \(kernel.names[safe: gpio] ?? "?")")
                }
            case .offset(let offset):
                if offset != gpio { problems.append("\(role.key) = \(offset): the comment says GPIO\(gpio)") }
            }
        }
        return problems
    }

    /// n of the first `GPIOn` in a comment line, e.g. 17 in `# GPIO17, header pin 11`.
    static func gpioNumber(in line: String) -> Int? {
        guard line.hasPrefix("#"), let range = line.range(of: "GPIO") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("every board file fits every model it is for", arguments: kernels)
    func boardFileFitsTheKernel(_ kernel: Kernel) throws {
        let text = try String(contentsOf: BoardMapTests.boardFolder.appendingPathComponent(kernel.file), encoding: .utf8)
        #expect(Self.problems(text, file: kernel.file, on: kernel) == [])
    }

    @Test("every Raspberry Pi board file in board/ is checked")
    func everyBoardFileHasAKernel() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: BoardMapTests.boardFolder.path)
            .filter { $0.hasPrefix("pi") && $0.hasSuffix(".conf") }
        #expect(Set(files) == Set(Self.kernels.map(\.file)))
        #expect(Self.kernels.allSatisfy { $0.names.count == 28 })
    }

    /// Board files a person could write for the wrong kernel, the model, and what the check says.
    static let wrong: [(board: String, model: String, problem: String)] = [
        ("[gpio]\nchip = gpiochip4\n# GPIO17, header pin 11\nled-fix = GPIO17\n", "Raspberry Pi 5",
         "chip gpiochip4: the kernel's label is pinctrl-rp1"),
        ("[gpio]\nchip = pinctrl-rp1\n# GPIO17, header pin 11\nled-fix = PIN11\n", "Raspberry Pi 5",
         "led-fix = PIN11: no header line of that name (GPIO17 is GPIO17)"),
        ("[gpio]\nchip = pinctrl-bcm2835\n# GPIO14, header pin 8\nled-fix = GPIO14\n", "Raspberry Pi 3 Model B",
         "led-fix = GPIO14: no header line of that name (GPIO14 is TXD1)"),
        ("[gpio]\nchip = pinctrl-bcm2711\n# GPIO27, header pin 13\nled-fix = GPIO17\n", "Raspberry Pi 4 Model B",
         "led-fix = GPIO17: the comment says GPIO27, which the kernel names GPIO27"),
        ("[gpio]\nchip = pinctrl-bcm2711\n# GPIO17, header pin 11\nled-fix = 18\n", "Raspberry Pi 4 Model B",
         "led-fix = 18: the comment says GPIO17"),
        ("[gpio]\nchip = pinctrl-bcm2711\nled-fix = GPIO17\n", "Raspberry Pi 4 Model B",
         "led-fix: no '# GPIOn, header pin m' comment above it"),
    ]

    @Test("a wrong chip, name or pin is found", arguments: wrong)
    func wrongBoardFiles(_ wrong: (board: String, model: String, problem: String)) throws {
        let kernel = try #require(Self.kernels.first { $0.model == wrong.model })
        #expect(Self.problems(wrong.board, file: kernel.file, on: kernel) == [wrong.problem])
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
