package dev.omcp.app.settings;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How the settings reader opens the files some settings name and validates at start (the service
 * catalog, the IP dataset). The launcher reads the file system; unit tests give an in-memory one.
 */
@FunctionalInterface
public interface SettingsFiles {

    /**
     * Opens a UTF-8 text file; the caller closes the reader.
     *
     * @throws java.nio.file.NoSuchFileException when nothing exists at {@code path}
     * @throws IOException when it exists but cannot be read, or is not UTF-8 (reported while reading)
     */
    Reader open(Path path) throws IOException;

    /** The real file system; text that is not valid UTF-8 fails the read instead of turning into replacement characters. */
    static SettingsFiles fileSystem() {
        return path -> new BufferedReader(new InputStreamReader(Files.newInputStream(path), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)), 64 * 1024);
    }
}
