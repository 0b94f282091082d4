/// How a value of another storage class in an integer column reads as an integer: as SQLite itself
/// reads it (`sqlite3_column_int64`), so that every way a store reads the column agrees.
///
/// Core Data writes integers to integer columns; other programs may leave text, a blob or a real there.
/// A real reads truncated toward zero, saturating at the ends of `Int64`'s range. Text, and a blob as
/// its bytes, read as the decimal integer at their start (after white space and an optional sign), also
/// saturating. Text or a blob with no digit after its white space and sign reads as `nil`, where SQLite
/// reads 0. An Integer 16 or 32 attribute then keeps the low bits, as it does of any integer.
enum SQLiteIntegerReading {
    /// The integer SQLite reads from a real. (SQLite stores no NaN, it stores NULL instead; one would
    /// read as 0.)
    static func integer(_ real: Double) -> Int64 {
        if real.isNaN { return 0 }
        if real <= -0x1p63 { return .min }
        if real >= 0x1p63 { return .max }
        return Int64(real.rounded(.towardZero))
    }

    /// The integer SQLite reads at the start of text or a blob, given as its bytes; `nil` when no
    /// digit comes after the white space and the sign.
    static func leadingInteger<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int64? {
        var iterator = bytes.makeIterator()
        var byte = iterator.next()
        // SQLite's white space: space, tab, line feed, vertical tab, form feed and carriage return.
        while let current = byte, current == 0x20 || (0x09...0x0D).contains(current) { byte = iterator.next() }
        let negative = byte == UInt8(ascii: "-")
        if negative || byte == UInt8(ascii: "+") { byte = iterator.next() }
        var magnitude: UInt64 = 0
        var overflowed = false
        var sawDigit = false
        while let current = byte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current) {
            sawDigit = true
            if !overflowed {
                let (tens, carried) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, added) = tens.addingReportingOverflow(UInt64(current - UInt8(ascii: "0")))
                overflowed = carried || added
                magnitude = sum
            }
            byte = iterator.next()
        }
        guard sawDigit else { return nil }
        if negative {
            return overflowed || magnitude > UInt64(Int64.max) + 1 ? .min : Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        return overflowed || magnitude > UInt64(Int64.max) ? .max : Int64(magnitude)
    }
}
