package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestBodyTest {
    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aDeclaredLengthIsReadExactly() throws IOException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        assertThat(RequestBody.read(stream(body), body.length(), 1024)).isEqualTo(new RequestBody.Read.Text(body));
    }

    @Test
    void aBodyWithoutDeclaredLengthIsReadToItsEndWithinTheLimit() throws IOException {
        assertThat(RequestBody.read(stream("{\"a\":1}"), -1, 1024)).isEqualTo(new RequestBody.Read.Text("{\"a\":1}"));
    }

    @Test
    void aBodyWithoutDeclaredLengthOverTheLimitIsTooLargeAfterReadingOneByteMore() throws IOException {
        ByteArrayInputStream in = stream("x".repeat(5000));
        assertThat(RequestBody.read(in, -1, 1000)).isInstanceOf(RequestBody.Read.TooLarge.class);
        assertThat(in.available()).isEqualTo(5000 - 1001);
    }

    @Test
    void aDeclaredLengthOverTheLimitIsRefusedWithoutReading() throws IOException {
        ByteArrayInputStream in = stream("x".repeat(5000));
        assertThat(RequestBody.read(in, 5000, 1000)).isInstanceOf(RequestBody.Read.TooLarge.class);
        assertThat(in.available()).isEqualTo(5000);
    }

    @Test
    void bytesThatAreNotUtf8AreReportedAsSuch() throws IOException {
        byte[] latin1 = {'{', '"', (byte) 0xE9, '"', '}'};
        assertThat(RequestBody.read(new ByteArrayInputStream(latin1), latin1.length, 1024)).isInstanceOf(RequestBody.Read.NotUtf8.class);
    }
}
