package dev.omcp.adapters.http.oidc;

import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import dev.omcp.adapters.http.outbound.BoundedExchange;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * Fetches the provider's JWKS for Nimbus through the same bounded exchange as every other call to
 * the provider. Nimbus's own retriever bounds the size but times only each read, so a JWKS served a
 * byte per second held the login for as long as the provider liked; it also bypassed the client the
 * gateway configured (no redirects).
 */
final class ProviderKeysRetriever implements ResourceRetriever {
    private final BoundedExchange exchange;

    ProviderKeysRetriever(BoundedExchange exchange) {
        this.exchange = exchange;
    }

    @Override
    public Resource retrieveResource(URL url) throws IOException {
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(url.toURI()).timeout(exchange.deadline()).header("Accept", "application/json").GET().build();
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IOException("the provider's jwks_uri is not a usable URL", e);
        }
        HttpResponse<byte[]> response;
        try {
            response = exchange.send(request);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while fetching the provider's signing keys");
            interrupted.initCause(e);
            throw interrupted;
        }
        if (response.statusCode() != 200) {
            throw new IOException("the provider's jwks_uri answered HTTP " + response.statusCode());
        }
        return new Resource(new String(response.body(), StandardCharsets.UTF_8), response.headers().firstValue("Content-Type").orElse(null));
    }
}
