import ChartRanking
import Testing

@testable import ChartStorage

/// The codes `verdicts.cause` stores are those the migrations document, whatever the order
/// ``DisagreementCause`` lists the causes in.
struct VerdictCodesTests {
  @Test func everyCauseHasTheCodeOfTheSchemaAndIsReadBack() {
    #expect(
      DisagreementCause.allCases.map { "\(VerdictCodes.code($0)) \($0.rawValue)" } == [
        "0 source gap", "1 rank shift", "2 credit change", "3 two recordings", "4 tie",
        "6 joined by hand", "5 unexplained",
      ])
    for cause in DisagreementCause.allCases {
      #expect(VerdictCodes.cause(code: VerdictCodes.code(cause)) == cause)
    }
    #expect(VerdictCodes.cause(code: 7) == .unexplained)
  }
}
