package dev.omcp.adapters.storage.plugins;

/** Size limits of everything read from a plugin directory or bundle: files are hostile until verified. */
final class PluginLimits {
    private PluginLimits() {}

    /** {@code package.json}. */
    static final int MAX_PACKAGE_JSON_BYTES = 64 * 1024;
    /** {@code manifest.json}. */
    static final int MAX_MANIFEST_BYTES = 1024 * 1024;
    /** A detached signature file (an RSA-4096 signature in base64 is under 1 KiB). */
    static final int MAX_SIGNATURE_BYTES = 16 * 1024;
    /** The PEM trust root. */
    static final int MAX_TRUST_ROOT_BYTES = 256 * 1024;
    /** The entry JAR. */
    static final int MAX_JAR_BYTES = 64 * 1024 * 1024;
    /** Everything inside the entry JAR once inflated. */
    static final long MAX_JAR_INFLATED_BYTES = 256L * 1024 * 1024;
    /** Entries in the entry JAR. */
    static final int MAX_JAR_ENTRIES = 65_536;
    /** A compressed bundle (upload limit, DECISIONS.md). */
    static final int MAX_BUNDLE_BYTES = 50 * 1024 * 1024;
    /** One file inside a bundle. */
    static final long MAX_BUNDLE_ENTRY_BYTES = 64L * 1024 * 1024;
    /** Every file of a bundle together, inflated. */
    static final long MAX_BUNDLE_TOTAL_BYTES = 128L * 1024 * 1024;
    /** Entries in a bundle. */
    static final int MAX_BUNDLE_ENTRIES = 4096;
    /** One hub catalog file. */
    static final int MAX_CATALOG_BYTES = 4 * 1024 * 1024;
    /** Connectors in a hub index: each one is a fetch. */
    static final int MAX_HUB_INDEX_ENTRIES = 1000;
    /** Versions in one connector's hub catalog file. */
    static final int MAX_HUB_VERSIONS = 500;
}
