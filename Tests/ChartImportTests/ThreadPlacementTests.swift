import CThreadPlacement
import Foundation
import Testing

/// The damage check's thread keeps off the CPU the import's storing thread runs on.
struct ThreadPlacementTests {
  /// The CPUs the calling thread may run on, from its `Cpus_allowed_list` in
  /// /proc/thread-self/status ("0-1", "0,2-3").
  private static func allowedCPUs() -> Set<Int> {
    let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
    guard
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") })
    else { return [] }
    var cpus: Set<Int> = []
    for part in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
      let bounds = part.trimmingCharacters(in: .whitespaces).split(separator: "-").compactMap {
        Int($0)
      }
      if let first = bounds.first { cpus.formUnion(first...(bounds.last ?? first)) }
    }
    return cpus
  }

  /// Runs `body` on a thread of its own, whose CPUs it may change, and returns what it returned.
  private static func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result)
    -> Result
  {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<Result>()
    Thread.detachNewThread {
      box.value = body()
      done.signal()
    }
    done.wait()
    return box.value!
  }

  private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    var value: Value?
  }

  @Test func aThreadKeptOffACPUMayRunOnEveryOtherOne() {
    let (before, cpu, kept, after) = Self.onOwnThread {
      let before = Self.allowedCPUs()
      let cpu = Int(chart_archive_current_cpu())
      let kept = chart_archive_keep_thread_off_cpu(Int32(cpu))
      return (before, cpu, kept, Self.allowedCPUs())
    }
    #expect(before.contains(cpu))
    if before.count >= 2 {
      #expect(kept == 1)
      #expect(after == before.subtracting([cpu]))
    } else {
      #expect(kept == 0)
      #expect(after == before)
    }
  }

  @Test func aCPUNotAmongTheThreadsOrNoneChangesNothing() {
    let (before, outside, none, after) = Self.onOwnThread {
      let before = Self.allowedCPUs()
      let outside = chart_archive_keep_thread_off_cpu(Int32((before.max() ?? 0) + 1))
      let none = chart_archive_keep_thread_off_cpu(-1)
      return (before, outside, none, Self.allowedCPUs())
    }
    #expect(outside == 0)
    #expect(none == 0)
    #expect(after == before)
    #expect(!before.isEmpty)
  }
}
