import Dispatch
import Synchronization

/// The results of `body` for `0..<count`, in that order, computed on as many threads as Dispatch
/// gives (`DispatchQueue.concurrentPerform`): the parts of a long file read at once.
func concurrentMap<Result: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
  let results = Mutex<[Result?]>(Array(repeating: nil, count: count))
  DispatchQueue.concurrentPerform(iterations: count) { index in
    let result = body(index)
    results.withLock { $0[index] = result }
  }
  return results.withLock { $0 }.map { $0! }
}

extension UnsafeRawBufferPointer {
  /// The text of a file's bytes: what follows a UTF-8 byte order mark, or all of them.
  var afterByteOrderMark: UnsafeRawBufferPointer {
    starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeRawBufferPointer(rebasing: self[3...]) : self
  }
}
