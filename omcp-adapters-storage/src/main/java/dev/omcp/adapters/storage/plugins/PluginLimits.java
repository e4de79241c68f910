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
    /**
     * Everything inside the entry JAR once inflated. The loader keeps these bytes in memory for as
     * long as the plugin is loaded, and the launcher's heap is 256 MiB: a JAR that inflated to 256
     * MiB (a nested zip bomb inside a bundle that passed every bundle bound) took the whole heap.
     */
    static final long MAX_JAR_INFLATED_BYTES = 64L * 1024 * 1024;
    /** Entries in the entry JAR. */
    static final int MAX_JAR_ENTRIES = 65_536;
    /** A compressed bundle (upload limit, DECISIONS.md). */
    static final int MAX_BUNDLE_BYTES = 50 * 1024 * 1024;
    /**
     * One file inside a bundle: the entry JAR is already compressed, so it is hardly smaller in the
     * bundle than on disk, and a file larger than the upload limit cannot be a real part of one.
     */
    static final long MAX_BUNDLE_ENTRY_BYTES = MAX_BUNDLE_BYTES;
    /**
     * Every file of a bundle together, inflated (tar headers included). The reader holds them all in
     * memory until they are written to staging, next to the upload itself, in a 256 MiB heap.
     */
    static final long MAX_BUNDLE_TOTAL_BYTES = 64L * 1024 * 1024;
    /** Entries in a bundle: a plugin needs package.json, manifest.json, a signature and a JAR, plus a few documents. */
    static final int MAX_BUNDLE_ENTRIES = 1024;
    /**
     * Names deep a bundle's path may lie. Staging, forcing to disk and deleting walk the tree with one
     * open directory per level, and names up to 1024 characters would allow 512 levels.
     */
    static final int MAX_BUNDLE_DEPTH = 32;
    /**
     * How many times its compressed size a bundle may inflate to, once past {@link #RATIO_FLOOR_BYTES}:
     * a bundle is mostly its JAR, which does not compress again, so a high ratio is a bomb, not a plugin.
     */
    static final int MAX_BUNDLE_RATIO = 32;
    /** Below this many inflated bytes the ratio is not checked: tiny bundles of text compress very well. */
    static final long RATIO_FLOOR_BYTES = 8L * 1024 * 1024;
    /** One hub catalog file. */
    static final int MAX_CATALOG_BYTES = 4 * 1024 * 1024;
    /**
     * A hub catalog's index and catalog files together, in one read: {@link #MAX_HUB_INDEX_ENTRIES} files of
     * {@link #MAX_CATALOG_BYTES} each would be 4 GiB, parsed into a 256 MiB heap. A real catalog's manifests are a few KiB each.
     */
    static final long MAX_HUB_CATALOG_BYTES = 16L * 1024 * 1024;
    /** Connectors in a hub index: each one is a fetch. */
    static final int MAX_HUB_INDEX_ENTRIES = 1000;
    /** Versions in one connector's hub catalog file. */
    static final int MAX_HUB_VERSIONS = 500;
}
