/// The condition of a partial fetch index (`NSFetchIndexDescription.partialIndexPredicate`), as
/// compiled models hold it: comparisons of a property with a constant, joined by AND or OR. Xcode's
/// editor cannot make one; apps set it in code, and the compiled model (`.momd`, a store's model
/// cache) keeps it. Core Data makes the index `… WHERE <condition>`.
public indirect enum IndexPredicate: Sendable, Hashable {
    public enum Comparison: Int, Sendable, Hashable {
        case lessThan = 0, lessThanOrEqual, greaterThan, greaterThanOrEqual, equal, notEqual
    }

    public enum Constant: Sendable, Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
    }

    case compare(property: String, Comparison, Constant)
    case and([IndexPredicate])
    case or([IndexPredicate])
}
