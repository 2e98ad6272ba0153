internal import CDBus

/// Reads the arguments of a libdbus message. Lives only on the connection's loop thread, while
/// the message it reads is alive.
struct DBusMessageReader {
    private var iter = DBusMessageIter()
    private var empty = false

    init(message: OpaquePointer) {
        empty = dbus_message_iter_init(message, &iter) == 0
    }

    private init(container: DBusMessageIter) { iter = container }

    /// The type code of the current argument (`CDBus_typeInvalid` past the end).
    var currentType: Int32 {
        mutating get { empty ? CDBus_typeInvalid : dbus_message_iter_get_arg_type(&iter) }
    }

    var isAtEnd: Bool { mutating get { currentType == CDBus_typeInvalid } }

    /// The signature of the current argument.
    var currentSignature: String {
        mutating get {
            guard !isAtEnd, let c = dbus_message_iter_get_signature(&iter) else { return "" }
            defer { dbus_free(c) }
            return String(cString: c)
        }
    }

    /// Every remaining argument.
    mutating func readAll() throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while !isAtEnd { values.append(try read()) }
        return values
    }

    /// The current argument; advances past it.
    mutating func read() throws(DBusError) -> DBusValue {
        let value = try readCurrent()
        dbus_message_iter_next(&iter)
        return value
    }

    /// Enters the container at the current position (struct, array, variant, dict entry), lets
    /// `body` read it, then advances past it.
    mutating func container<T>(
        _ expected: Int32, _ body: (inout DBusMessageReader) throws(DBusError) -> T
    ) throws(DBusError) -> T {
        guard currentType == expected else { throw mismatch(expected) }
        var child = DBusMessageReader(container: DBusMessageIter())
        dbus_message_iter_recurse(&iter, &child.iter)
        let result = try body(&child)
        dbus_message_iter_next(&iter)
        return result
    }

    /// Hands the bytes of the `ay` at the current position to `body` in place (no copy into a
    /// Swift array: used for secrets), then advances past it.
    mutating func readByteArray<T>(
        _ body: (UnsafeRawBufferPointer) throws(DBusError) -> T
    ) throws(DBusError) -> T {
        guard currentType == CDBus_typeArray, currentSignature == "ay" else {
            throw .invalidArgs("expected a byte array (ay), got \(currentSignature)")
        }
        return try container(CDBus_typeArray) { (array) throws(DBusError) in
            var count: Int32 = 0
            let base = CDBus_readByteArray(&array.iter, &count)
            return try body(UnsafeRawBufferPointer(start: base, count: Int(max(count, 0))))
        }
    }

    private mutating func readCurrent() throws(DBusError) -> DBusValue {
        let type = currentType
        switch type {
        case CDBus_typeByte: return .byte(basic().byt)
        case CDBus_typeBoolean: return .bool(basic().bool_val != 0)
        case CDBus_typeInt16: return .int16(basic().i16)
        case CDBus_typeUInt16: return .uint16(basic().u16)
        case CDBus_typeInt32: return .int32(basic().i32)
        case CDBus_typeUInt32: return .uint32(basic().u32)
        case CDBus_typeInt64: return .int64(Int64(basic().i64))
        case CDBus_typeUInt64: return .uint64(UInt64(basic().u64))
        case CDBus_typeDouble: return .double(basic().dbl)
        case CDBus_typeString: return .string(string())
        case CDBus_typeObjectPath: return .objectPath(string())
        case CDBus_typeSignature: return .signature(string())
        case CDBus_typeArray: return try readArray()
        case CDBus_typeStruct:
            var child = DBusMessageReader(container: DBusMessageIter())
            dbus_message_iter_recurse(&iter, &child.iter)
            return .structure(try child.readAll())
        case CDBus_typeVariant:
            var child = DBusMessageReader(container: DBusMessageIter())
            dbus_message_iter_recurse(&iter, &child.iter)
            return .variant(try child.read())
        case CDBus_typeUnixFD:
            throw .invalidArgs("file descriptors (type h) are not supported")
        default:
            throw .invalidArgs("unexpected D-Bus type code \(type)")
        }
    }

    private mutating func readArray() throws(DBusError) -> DBusValue {
        // "a..." for this array; the element type follows the 'a'.
        let elementSignature = String(currentSignature.dropFirst())
        var child = DBusMessageReader(container: DBusMessageIter())
        dbus_message_iter_recurse(&iter, &child.iter)
        if elementSignature == "y" {
            var count: Int32 = 0
            let base = CDBus_readByteArray(&child.iter, &count)
            let bytes = UnsafeRawBufferPointer(start: base, count: Int(max(count, 0)))
            return .array(elementSignature: "y", bytes.map { .byte($0) })
        }
        if elementSignature.hasPrefix("{") {
            // "{kv}": the key is one basic type code, the value is the rest.
            let inner = elementSignature.dropFirst().dropLast()
            let key = String(inner.prefix(1))
            let value = String(inner.dropFirst())
            var entries: [DBusDictionaryEntry] = []
            while !child.isAtEnd {
                let entry = try child.container(CDBus_typeDictEntry) { (pair) throws(DBusError) in
                    DBusDictionaryEntry(key: try pair.read(), value: try pair.read())
                }
                entries.append(entry)
            }
            return .dictionary(keySignature: key, valueSignature: value, entries)
        }
        return .array(elementSignature: elementSignature, try child.readAll())
    }

    private mutating func basic() -> DBusBasicValue {
        var value = DBusBasicValue()
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    private mutating func string() -> String {
        let value = basic()
        guard let c = value.str else { return "" }
        return String(cString: c)
    }

    private mutating func mismatch(_ expected: Int32) -> DBusError {
        let expectedCode = UnicodeScalar(UInt8(truncatingIfNeeded: expected))
        return .invalidArgs(
            "expected an argument of type \(Character(expectedCode)), got \(currentSignature)")
    }
}
