internal import CDBus

/// Appends arguments to a libdbus message. Lives only on the connection's loop thread, for as long
/// as the message it writes to.
struct DBusMessageWriter {
    private var iter = DBusMessageIter()

    init(message: OpaquePointer) {
        dbus_message_iter_init_append(message, &iter)
    }

    private init(container: DBusMessageIter) { iter = container }

    /// Appends `values` in order after checking each one can be sent.
    mutating func append(_ values: [DBusValue]) throws(DBusError) {
        for value in values { try append(value) }
    }

    /// Appends one value after checking it can be sent (so a bad value never half-writes).
    mutating func append(_ value: DBusValue) throws(DBusError) {
        try DBusValue.validate(value)
        try write(value)
    }

    /// Appends an `ay` straight from `bytes`, with no intermediate Swift array (used for secrets).
    mutating func appendByteArray(_ bytes: UnsafeRawBufferPointer) throws(DBusError) {
        try container(CDBus_typeArray, "y") { (array: inout DBusMessageWriter) throws(DBusError) in
            let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            guard CDBus_appendByteArray(&array.iter, base, Int32(bytes.count)) != 0 else {
                throw Self.outOfMemory
            }
        }
    }

    /// Opens a container (struct, array, variant, dict entry), lets `body` fill it, closes it.
    mutating func container(
        _ type: Int32, _ signature: String?, _ body: (inout DBusMessageWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var child = DBusMessageWriter(container: DBusMessageIter())
        let opened: Bool =
            if let signature {
                signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &child.iter) } != 0
            } else {
                dbus_message_iter_open_container(&iter, type, nil, &child.iter) != 0
            }
        guard opened else { throw Self.outOfMemory }
        do {
            try body(&child)
        } catch {
            dbus_message_iter_abandon_container(&iter, &child.iter)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &child.iter) != 0 else { throw Self.outOfMemory }
    }

    private mutating func write(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .byte(let v): try basic(CDBus_typeByte, v)
        case .bool(let v): try basic(CDBus_typeBoolean, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): try basic(CDBus_typeInt16, v)
        case .uint16(let v): try basic(CDBus_typeUInt16, v)
        case .int32(let v): try basic(CDBus_typeInt32, v)
        case .uint32(let v): try basic(CDBus_typeUInt32, v)
        case .int64(let v): try basic(CDBus_typeInt64, v)
        case .uint64(let v): try basic(CDBus_typeUInt64, v)
        case .double(let v): try basic(CDBus_typeDouble, v)
        case .string(let v): try stringLike(CDBus_typeString, v)
        case .objectPath(let v): try stringLike(CDBus_typeObjectPath, v)
        case .signature(let v): try stringLike(CDBus_typeSignature, v)
        case .array("y", let elements):
            let bytes = elements.map { $0.byte ?? 0 }
            let appended = bytes.withUnsafeBytes { raw in
                Result { () throws(DBusError) in try appendByteArray(raw) }
            }
            try appended.get()
        case .array(let element, let elements):
            try container(CDBus_typeArray, element) { (array: inout DBusMessageWriter) throws(DBusError) in
                for e in elements { try array.write(e) }
            }
        case .dictionary(let key, let valueSignature, let entries):
            try container(CDBus_typeArray, "{" + key + valueSignature + "}") {
                (array: inout DBusMessageWriter) throws(DBusError) in
                for entry in entries {
                    try array.container(CDBus_typeDictEntry, nil) {
                        (pair: inout DBusMessageWriter) throws(DBusError) in
                        try pair.write(entry.key)
                        try pair.write(entry.value)
                    }
                }
            }
        case .structure(let fields):
            try container(CDBus_typeStruct, nil) { (s: inout DBusMessageWriter) throws(DBusError) in
                for f in fields { try s.write(f) }
            }
        case .variant(let inner):
            try container(CDBus_typeVariant, inner.signature) {
                (v: inout DBusMessageWriter) throws(DBusError) in
                try v.write(inner)
            }
        }
    }

    private mutating func basic<T: BitwiseCopyable>(_ type: Int32, _ value: T) throws(DBusError) {
        var value = value
        guard dbus_message_iter_append_basic(&iter, type, &value) != 0 else { throw Self.outOfMemory }
    }

    private mutating func stringLike(_ type: Int32, _ value: String) throws(DBusError) {
        let ok = value.withCString { CDBus_appendStringLike(&iter, type, $0) }
        guard ok != 0 else { throw Self.outOfMemory }
    }

    private static var outOfMemory: DBusError {
        .failed("libdbus could not append an argument (out of memory)")
    }
}

extension DBusValue {
    /// Checks what libdbus would otherwise reject (or assert on) while writing: element types that
    /// differ from the declared signature, strings with NUL, invalid object paths and signatures.
    static func validate(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return
        case .string(let s):
            guard !s.utf8.contains(0) else { throw .invalidArgs("a D-Bus string cannot contain NUL") }
        case .objectPath(let p):
            guard p.withCString({ dbus_validate_path($0, nil) }) != 0 else {
                throw .invalidArgs("\(p.debugDescription) is not a valid D-Bus object path")
            }
        case .signature(let g):
            guard !g.utf8.contains(0), g.withCString({ dbus_signature_validate($0, nil) }) != 0 else {
                throw .invalidArgs("\(g.debugDescription) is not a valid D-Bus signature")
            }
        case .array(let element, let elements):
            try validateSingle(element)
            for e in elements {
                guard e.signature == element else {
                    throw .invalidArgs("array of \(element) holds an element of type \(e.signature)")
                }
                try validate(e)
            }
        case .dictionary(let key, let valueSignature, let entries):
            try validateSingle(key)
            try validateSingle(valueSignature)
            guard key.utf8.count == 1, dbus_type_is_basic(Int32(key.utf8.first!)) != 0 else {
                throw .invalidArgs("dictionary key type \(key) is not a basic type")
            }
            for entry in entries {
                guard entry.key.signature == key, entry.value.signature == valueSignature else {
                    throw .invalidArgs(
                        "dictionary a{\(key)\(valueSignature)} holds an entry of type "
                            + "{\(entry.key.signature)\(entry.value.signature)}")
                }
                try validate(entry.key)
                try validate(entry.value)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidArgs("a D-Bus struct cannot be empty") }
            for f in fields { try validate(f) }
        case .variant(let inner):
            try validate(inner)
        }
    }

    private static func validateSingle(_ signature: String) throws(DBusError) {
        guard !signature.utf8.contains(0),
            signature.withCString({ dbus_signature_validate_single($0, nil) }) != 0
        else {
            throw .invalidArgs("\(signature.debugDescription) is not a single complete D-Bus type")
        }
    }
}
