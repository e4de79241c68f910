package dev.omcp.adapters.http.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Pattern;

/**
 * The Web UI's files, read from the classpath below one folder ({@code ui/}) the first time each is asked for and kept.
 *
 * <p>What may be asked for is narrow, so nothing else on the classpath can be reached: a name of at most
 * {@value #MAX_NAME_LENGTH} characters and {@value #MAX_PARTS} parts separated by {@code /}, each part letters, digits,
 * {@code _}, {@code -} and {@code .} but not starting with a dot ({@code ..}, {@code .}, hidden files, empty parts and
 * backslashes are refused before any lookup), and ending in an extension the UI ships ({@link ContentTypes}), so a
 * folder is never read and never listed. Only files that exist are kept, so asking for many names that do not exist
 * costs no memory. Thread-safe.
 */
final class UiAssets {
    /** The longest name asked for that is looked up; the UI's own are far shorter. */
    static final int MAX_NAME_LENGTH = 200;
    /** The deepest name looked up ({@code js/pages/inspect.js} has three parts). */
    static final int MAX_PARTS = 4;
    /** The largest file served; a larger one is a packaging mistake, not a file of the UI. */
    static final int MAX_BYTES = 1024 * 1024;
    private static final Pattern PART = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]*");
    private static final Base64.Encoder TAG_ENCODING = Base64.getUrlEncoder().withoutPadding();
    /** Bytes of the SHA-256 digest an entity tag keeps: enough to tell versions of one file apart. */
    private static final int TAG_BYTES = 18;

    private final ClassLoader loader;
    private final String folder;
    private final ConcurrentMap<String, UiAsset> read = new ConcurrentHashMap<>();

    /** What a name asked for is. */
    sealed interface Lookup {
        /** A file of the UI. */
        record Found(UiAsset asset) implements Lookup { }

        /** The UI has no such file (or none of a kind it serves). */
        record Missing() implements Lookup { }

        /** The name cannot be one of the UI's files; {@code problem} says which rule it breaks, without quoting it. */
        record NotAName(String problem) implements Lookup { }
    }

    /**
     * @param loader the class loader whose resources hold the files
     * @param folder the resource folder below which they lie, ending in {@code /}, for example {@code ui/}
     */
    UiAssets(ClassLoader loader, String folder) {
        this.loader = Objects.requireNonNull(loader, "loader");
        if (!folder.endsWith("/") || folder.startsWith("/")) {
            throw new IllegalArgumentException("the folder is a resource path ending in '/', without a leading '/': " + folder);
        }
        this.folder = folder;
    }

    /** The file {@code name} (a path below {@code /ui/}, without a leading {@code /}), read on first use. */
    Lookup find(String name) {
        Optional<String> problem = problem(name);
        if (problem.isPresent()) {
            return new Lookup.NotAName(problem.get());
        }
        UiAsset known = read.get(name);
        if (known != null) {
            return new Lookup.Found(known);
        }
        Optional<String> type = ContentTypes.of(name);
        if (type.isEmpty()) {
            return new Lookup.Missing();
        }
        Optional<byte[]> bytes = load(name);
        if (bytes.isEmpty()) {
            return new Lookup.Missing();
        }
        UiAsset asset = new UiAsset(name, type.get(), bytes.get(), entityTag(bytes.get()));
        UiAsset first = read.putIfAbsent(name, asset);
        return new Lookup.Found(first == null ? asset : first);
    }

    /** Which rule {@code name} breaks; empty when it may name a file of the UI. */
    static Optional<String> problem(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            return Optional.of("a file name of the Web UI has 1-" + MAX_NAME_LENGTH + " characters");
        }
        String[] parts = name.split("/", -1);
        if (parts.length > MAX_PARTS) {
            return Optional.of("a file name of the Web UI has at most " + MAX_PARTS + " parts separated by '/'");
        }
        for (String part : parts) {
            if (!PART.matcher(part).matches()) {
                return Optional.of("each part of a file name of the Web UI is letters, digits, '_', '-' and '.', not empty and"
                        + " not starting with '.'");
            }
        }
        return Optional.empty();
    }

    private Optional<byte[]> load(String name) {
        try (InputStream in = loader.getResourceAsStream(folder + name)) {
            if (in == null) {
                return Optional.empty();
            }
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new IllegalStateException("the Web UI's file " + folder + name + " is larger than " + MAX_BYTES
                        + " bytes, which no file of the UI is; the build packaged something else there");
            }
            return Optional.of(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("the Web UI's file " + folder + name + " could not be read from the classpath", e);
        }
    }

    private static String entityTag(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            return TAG_ENCODING.encodeToString(Arrays.copyOf(digest, TAG_BYTES));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
