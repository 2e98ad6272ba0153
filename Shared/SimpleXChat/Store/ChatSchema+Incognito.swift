extension ChatSchema {
    /// Incognito contacts (SimpleX's names): the random profile the user shows one contact instead
    /// of their own is a `contact_profiles` row marked `incognito`, named by the contact's
    /// connection.
    static let incognito = """
        ALTER TABLE contact_profiles ADD COLUMN incognito INTEGER;
        ALTER TABLE connections ADD COLUMN custom_user_profile_id INTEGER
          REFERENCES contact_profiles ON DELETE SET NULL;
        CREATE INDEX idx_connections_custom_user_profile_id ON connections (custom_user_profile_id);
        """
}
