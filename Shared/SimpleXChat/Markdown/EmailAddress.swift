/// Which words markdown shows as email addresses (Markdown.hs `isEmail`, the `email-validate`
/// package): `local@domain`, both dot-separated atoms of RFC 5322 atom characters, or a domain
/// literal `[...]`. A domain needs no dot (`a@b` is an address, as in SimpleX); quoted local
/// parts and comments, which `email-validate` also reads, are not recognised here.
enum EmailAddress {
    /// Whether `word` is such an address.
    static func isValid(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let at = word.firstIndex(of: "@") else { return false }
        let local = word[..<at]
        let domain = word[(at + 1)...]
        guard isDotAtom(local) else { return false }
        if domain.first == "[" && domain.last == "]" && domain.count >= 2 {
            return domain.dropFirst().dropLast().allSatisfy {
                $0.isASCII && $0.value > 0x20 && !"[]\\".unicodeScalars.contains($0)
            }
        }
        return isDotAtom(domain)
    }

    /// Atoms separated by single dots, none empty.
    private static func isDotAtom(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        let atoms = text.split(separator: ".", omittingEmptySubsequences: false)
        return !atoms.isEmpty
            && atoms.allSatisfy { atom in !atom.isEmpty && atom.allSatisfy(isAtomCharacter) }
    }

    /// RFC 5322 `atext`.
    private static func isAtomCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIIDigit || scalar.isASCIILetter || "!#$%&'*+/=?^_`{|}~-".unicodeScalars.contains(scalar)
    }
}
