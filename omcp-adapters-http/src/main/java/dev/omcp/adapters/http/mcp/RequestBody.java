package dev.omcp.adapters.http.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Reads a request body without ever holding more than the limit plus one byte. */
final class RequestBody {
    private RequestBody() {}

    /** The outcome of reading a bounded body. */
    sealed interface Read {
        record Text(String text) implements Read {}

        record TooLarge() implements Read {}

        record NotUtf8() implements Read {}
    }

    /** Reads up to the given number of bytes, fewer only at the body's end (as {@code InputStream.readNBytes}). */
    @FunctionalInterface
    interface Source {
        byte[] readNBytes(int max) throws IOException;
    }

    static Read read(InputStream in, long declaredLength, int limit) throws IOException {
        return read(in::readNBytes, declaredLength, limit);
    }

    static Read read(Source in, long declaredLength, int limit) throws IOException {
        if (declaredLength > limit) {
            return new Read.TooLarge();
        }
        // A declared length sizes the read exactly (one array of that size, Jetty refuses a body longer
        // than it declares); without one, read up to the limit plus one byte to tell "too large" apart.
        byte[] bytes = in.readNBytes(declaredLength >= 0 ? (int) declaredLength : limit + 1);
        if (bytes.length > limit) {
            return new Read.TooLarge();
        }
        Optional<String> text = utf8(bytes);
        return text.<Read>map(Read.Text::new).orElseGet(Read.NotUtf8::new);
    }

    static Optional<String> utf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
