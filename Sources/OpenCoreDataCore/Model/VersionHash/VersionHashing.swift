/// Computes version hashes (Core Data's hashing scheme 3) exactly as /work/shared/VERSION-HASH.md
/// specifies: SHA-256 chained from property to entity, little-endian integers, UTF-8 strings with no
/// terminator or length prefix.
///
/// Points that no known vector pins are marked "UNVERIFIED" below; their encodings are fixed here and
/// must stay stable, since stores record the hashes.
enum VersionHashing {
    // MARK: Properties

    /// The version hash of any property description.
    static func hash(of property: NSPropertyDescription) -> Data {
        let base = propertyBase(property)
        switch property {
        case let relationship as NSRelationshipDescription:
            return relationshipHash(relationship, base: base)
        case let derived as NSDerivedAttributeDescription:
            return derivedAttributeHash(derived)
        case let attribute as NSAttributeDescription:
            return attributeHash(attribute, base: base)
        default:
            // Fetched properties and expression descriptions: the property base alone. UNVERIFIED (no
            // vector: fetched properties never reach an entity hash).
            return base
        }
    }

    /// SHA256(name ‖ u16le(flags) ‖ [versionHashModifier]).
    private static func propertyBase(_ property: NSPropertyDescription) -> Data {
        var flags: UInt16 = 0
        if property._isOptional { flags |= 1 }
        // UNVERIFIED bit positions: transient properties never reach an entity hash and only fetched
        // properties and derived attributes are read-only, so no vector pins these two bits.
        if property._isTransient { flags |= 2 }
        if property.isReadOnly { flags |= 4 }
        var buffer = Data(property._name.utf8)
        appendLittleEndian(flags, to: &buffer)
        if let modifier = property._versionHashModifier {
            buffer.append(contentsOf: Array(modifier.utf8))
        }
        return SHA2.sha256(buffer)
    }

    /// SHA256(base ‖ u32le(attributeType) ‖ [flag byte when non-zero]).
    private static func attributeHash(_ attribute: NSAttributeDescription, base: Data) -> Data {
        var buffer = base
        appendLittleEndian(UInt32(truncatingIfNeeded: attribute.attributeType.rawValue), to: &buffer)
        // 0x01 = preservesValueInHistoryOnDeletion (verified: SampleModel_V1 Person.id).
        // 0x02 = allowsExternalBinaryDataStorage: UNVERIFIED. Apple's hash is known to change with the
        // flag; it is encoded as a second bit of the same optional trailing byte.
        var trailer: UInt8 = 0
        if attribute._preservesValueInHistoryOnDeletion { trailer |= 0x01 }
        if attribute._allowsExternalBinaryDataStorage { trailer |= 0x02 }
        if trailer != 0 { buffer.append(trailer) }
        if let composite = attribute as? NSCompositeAttributeDescription {
            // UNVERIFIED: a composite attribute's element hashes, in element order.
            for element in composite._elements {
                buffer.append(hash(of: element))
            }
        }
        return SHA2.sha256(buffer)
    }

    /// SHA256(format text of the derivation expression): nothing else of the attribute — no name, flag
    /// word, type or trailer — goes in (verified: VERSION-HASH.md "Derived attributes", `count:(pages)`).
    /// A derived attribute with no expression hashes the empty text (UNVERIFIED).
    private static func derivedAttributeHash(_ derived: NSDerivedAttributeDescription) -> Data {
        SHA2.sha256(Data((derived._derivationExpression?.description ?? "").utf8))
    }

    /// SHA256(base ‖ destination name ‖ inverse name ‖ u32le(maxCount) ‖ u32le(minCount) ‖ [u16le(1)]).
    private static func relationshipHash(_ relationship: NSRelationshipDescription, base: Data) -> Data {
        var buffer = base
        buffer.append(contentsOf: Array((relationship._destinationEntity?._name ?? "").utf8))
        // A nil inverse contributes nothing (UNVERIFIED: VERSION-HASH.md open point 6).
        buffer.append(contentsOf: Array((relationship._inverseRelationship?._name ?? "").utf8))
        appendLittleEndian(UInt32(truncatingIfNeeded: relationship._maxCount), to: &buffer)
        appendLittleEndian(UInt32(truncatingIfNeeded: relationship._minCount), to: &buffer)
        if relationship._isOrdered {
            appendLittleEndian(UInt16(1), to: &buffer)
        }
        return SHA2.sha256(buffer)
    }

    // MARK: Entities

    /// SHA256(name ‖ u8(isAbstract) ‖ [superentity hash] ‖ property hashes by name ‖ own uniqueness
    /// tuples ‖ [versionHashModifier]).
    static func hash(of entity: NSEntityDescription) -> Data {
        hash(of: entity, below: [])
    }

    /// The entity's hash; `below` holds the subentities whose hash asked for it, so that an inheritance
    /// cycle (an invalid model, reported by the model checks) ends instead of recursing forever.
    private static func hash(of entity: NSEntityDescription, below: [ObjectIdentifier]) -> Data {
        if let frozen = entity._frozenVersionHash { return frozen }
        var buffer = Data((entity._name ?? "").utf8)
        buffer.append(entity._isAbstract ? 1 : 0)
        if let superentity = entity._superentity, !below.contains(ObjectIdentifier(superentity)),
            superentity !== entity
        {
            buffer.append(hash(of: superentity, below: below + [ObjectIdentifier(entity)]))
        }
        // Every persistent property, inherited ones included; transient and fetched properties (and
        // any other read-only description that is not an attribute) are left out. Names sort byte-wise.
        let hashed = entity.propertiesByName.values
            .filter { property in
                !property._isTransient
                    && (property is NSAttributeDescription || property is NSRelationshipDescription)
            }
            .sorted { $0._name.utf8.lexicographicallyPrecedes($1._name.utf8) }
        for property in hashed {
            buffer.append(hash(of: property))
        }
        // Own constraints only, each tuple joined with "."; tuples follow each other with no separator
        // (UNVERIFIED for two or more tuples: VERSION-HASH.md open point 5).
        for tuple in entity._uniquenessConstraintNames {
            buffer.append(contentsOf: Array(tuple.joined(separator: ".").utf8))
        }
        // UNVERIFIED position (VERSION-HASH.md open point 3): the modifier ends the buffer.
        if let modifier = entity._versionHashModifier {
            buffer.append(contentsOf: Array(modifier.utf8))
        }
        return SHA2.sha256(buffer)
    }

    // MARK: Models

    /// base64(SHA256(entity hashes concatenated in entity-name order)): the model's `versionChecksum`.
    static func versionChecksum(of hashes: [String: Data]) -> String {
        var buffer = Data()
        for name in sortedNames(hashes) {
            if let hash = hashes[name] { buffer.append(hash) }
        }
        return SHA2.sha256(buffer).base64EncodedString()
    }

    /// base64(SHA512(name ‖ hash, concatenated in entity-name order)): the store metadata's
    /// `NSStoreModelVersionHashesDigest`.
    static func versionHashesDigest(of hashes: [String: Data]) -> String {
        var buffer = Data()
        for name in sortedNames(hashes) {
            buffer.append(contentsOf: Array(name.utf8))
            if let hash = hashes[name] { buffer.append(hash) }
        }
        return SHA2.sha512(buffer).base64EncodedString()
    }

    /// The dictionary's keys in byte-wise UTF-8 order.
    private static func sortedNames(_ hashes: [String: Data]) -> [String] {
        hashes.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to buffer: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    }
}
