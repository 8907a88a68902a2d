import CThreadPlacement
import Foundation
import Testing

@testable import ChartImport

/// The import's own threads (the reading thread, the damage check's) start off the CPU the
/// import's storing thread runs on.
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

  /// Starts a thread off `cpu` (see ``PlacedThread/start(offCPU:_:)``), and returns the CPUs it
  /// may run on and the CPU it began on, as it found them.
  private static func startedThread(offCPU cpu: Int32) -> (allowed: Set<Int>, first: Int) {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<(Set<Int>, Int)>()
    PlacedThread.start(offCPU: cpu) {
      box.value = (Self.allowedCPUs(), Int(chart_archive_thread_start_cpu()))
      done.signal()
    }
    done.wait()
    return box.value!
  }

  private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    var value: Value?
  }

  /// A thread started off the caller's CPU begins on another of the caller's CPUs, then may run
  /// on every one of them: the reading thread and the damage check's scan never wait behind the
  /// storing thread to begin, and are not kept from its CPU afterwards.
  @Test func aThreadStartedOffACPUBeginsElsewhereThenMayRunAnywhere() {
    let before = Self.allowedCPUs()
    for _ in 0..<20 {
      let cpu = chart_archive_current_cpu()
      let started = Self.startedThread(offCPU: cpu)
      #expect(before.contains(Int(cpu)))
      #expect(started.allowed == before)
      if before.count >= 2 {
        #expect(started.first != Int(cpu))
        #expect(before.contains(started.first))
      } else {
        #expect(started.first == -1)
      }
    }
  }

  /// A CPU not among the caller's, or none (-1), leaves the thread all of the caller's CPUs from
  /// its start.
  @Test func aCPUNotAmongTheCallersOrNoneLeavesEveryCPU() {
    let before = Self.allowedCPUs()
    #expect(!before.isEmpty)
    for cpu in [Int32((before.max() ?? 0) + 1), -1] {
      let started = Self.startedThread(offCPU: cpu)
      #expect(started.allowed == before)
      #expect(started.first == -1)
    }
  }

  /// The nice value of the calling thread, from /proc/thread-self/stat (its 19th field, after the
  /// name in parentheses).
  private static func niceValue() -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    // Fields from the 3rd (state) on: the 19th is the 17th of these.
    return fields.count > 16 ? Int(fields[16]) : nil
  }

  /// A thread that lowers its priority (the damage check's scan) runs 10 nice values lower than
  /// it did; the thread that started it keeps its own.
  @Test func aThreadLowersItsOwnPriorityOnly() {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<(Int?, Int32, Int?)>()
    let callerBefore = Self.niceValue()
    PlacedThread.start(offCPU: -1) {
      let before = Self.niceValue()
      let status = chart_archive_lower_thread_priority(DamageCheck.niceness)
      box.value = (before, status, Self.niceValue())
      done.signal()
    }
    done.wait()
    let (before, status, after) = box.value!
    #expect(status == 0)
    #expect(after == min(19, (before ?? 0) + 10))
    #expect(Self.niceValue() == callerBefore)
  }
}
