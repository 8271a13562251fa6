/// A probability expressed as an exact integer fraction `numerator / denominator`.
///
/// Decisions in the simulator never use `Double`: a ratio is drawn with
/// ``Xoshiro256StarStar/chance(_:)``, which compares a uniform integer below `denominator`
/// with `numerator`, so the outcome is identical on every machine and toolchain.
///
/// Equality is structural: `Ratio(1, 2) != Ratio(2, 4)`, because the denominator decides how
/// the random draw is made and therefore which values the stream produces.
public struct Ratio: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The number of favourable outcomes out of ``denominator``.
    public let numerator: UInt64
    /// The number of equally likely outcomes; always greater than zero.
    public let denominator: UInt64

    /// The impossible event, `0/1`.
    public static let never = Ratio(0, 1)
    /// The certain event, `1/1`.
    public static let always = Ratio(1, 1)

    /// Creates the probability `numerator / denominator`.
    ///
    /// - Parameter numerator: Favourable outcomes; must not exceed `denominator`.
    /// - Parameter denominator: Equally likely outcomes; must be greater than zero.
    public init(_ numerator: UInt64, _ denominator: UInt64) {
        precondition(denominator > 0, "Ratio: denominator must be greater than zero (got \(numerator)/\(denominator))")
        precondition(numerator <= denominator, "Ratio: numerator must not exceed denominator (got \(numerator)/\(denominator))")
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Creates the probability `numerator / denominator` (labelled spelling of ``init(_:_:)``).
    public init(numerator: UInt64, denominator: UInt64) {
        self.init(numerator, denominator)
    }

    /// `"numerator/denominator"`, for example `"3/1000"`.
    public var description: String { "\(numerator)/\(denominator)" }

    private enum CodingKeys: String, CodingKey {
        case numerator
        case denominator
    }

    /// Decodes a ratio, rejecting input that would violate the initialiser's preconditions.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the denominator is zero or the numerator
    ///   exceeds the denominator, so a bad scenario file is a reported error rather than a trap.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let numerator = try container.decode(UInt64.self, forKey: .numerator)
        let denominator = try container.decode(UInt64.self, forKey: .denominator)
        guard denominator > 0, numerator <= denominator else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "Ratio \(numerator)/\(denominator) needs 0 < denominator and numerator <= denominator"))
        }
        self.init(numerator, denominator)
    }
}
