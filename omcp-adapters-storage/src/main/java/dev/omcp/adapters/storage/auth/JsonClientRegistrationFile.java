package dev.omcp.adapters.storage.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.auth.ClientMetadata;
import dev.omcp.ports.auth.ClientRegistrationStore;
import dev.omcp.ports.auth.RegisteredClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Dynamic client registrations in a JSON file ({@code OMCP_OIDC_DCR_STORE}, mode 0600):
 * {@code {"clients": [{client_id, client_secret_sha256, client_id_issued_at, redirect_uris,
 * client_name, token_endpoint_auth_method, grant_types, response_types, scope}]}}. Every save
 * rewrites the file atomically (temp file, fsync, rename) before the client learns its id. Only
 * the SHA-256 of a client secret is stored.
 */
public final class JsonClientRegistrationFile implements ClientRegistrationStore {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    private final List<RegisteredClient> clients;
    private final ReentrantLock writing = new ReentrantLock();

    private JsonClientRegistrationFile(Path file, List<RegisteredClient> clients) {
        this.file = file;
        this.clients = clients;
    }

    /**
     * Opens the file, creating it (mode 0600) when absent.
     *
     * @throws IOException when it exists but cannot be read or is not a registrations file
     */
    public static JsonClientRegistrationFile open(Path file) throws IOException {
        boolean created = PrivateFiles.ensure(file);
        List<RegisteredClient> clients = new ArrayList<>();
        if (!created && Files.size(file) > 0) {
            JsonNode root = MAPPER.readTree(Files.readAllBytes(file));
            if (root == null || !root.isObject() || !root.path("clients").isArray()) {
                throw new IOException("OMCP_OIDC_DCR_STORE " + file + " is not a client registrations file ({\"clients\": [...]})");
            }
            for (JsonNode entry : root.path("clients")) {
                clients.add(parse(entry));
            }
        }
        return new JsonClientRegistrationFile(file, clients);
    }

    @Override
    public void save(RegisteredClient client) {
        writing.lock();
        try {
            List<RegisteredClient> next = new ArrayList<>(clients);
            next.add(client);
            List<Map<String, Object>> entries = new ArrayList<>();
            next.forEach(c -> entries.add(format(c)));
            PrivateFiles.replace(file, MAPPER.writeValueAsBytes(Map.of("clients", entries)));
            clients.add(client);
        } catch (IOException e) {
            throw new UncheckedIOException("the client registration could not be written to OMCP_OIDC_DCR_STORE", e);
        } finally {
            writing.unlock();
        }
    }

    @Override
    public int count() {
        writing.lock();
        try {
            return clients.size();
        } finally {
            writing.unlock();
        }
    }

    private static Map<String, Object> format(RegisteredClient client) {
        ClientMetadata metadata = client.metadata();
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("client_id", client.clientId());
        entry.put("client_secret_sha256", client.secretSha256());
        entry.put("client_id_issued_at", client.issuedAt().getEpochSecond());
        entry.put("redirect_uris", metadata.redirectUris());
        entry.put("client_name", metadata.clientName());
        entry.put("token_endpoint_auth_method", metadata.tokenEndpointAuthMethod());
        entry.put("grant_types", metadata.grantTypes());
        entry.put("response_types", metadata.responseTypes());
        entry.put("scope", metadata.scope());
        return entry;
    }

    private static RegisteredClient parse(JsonNode entry) throws IOException {
        if (!entry.path("client_id").isTextual() || !entry.path("client_id_issued_at").canConvertToLong()) {
            throw new IOException("a client registration lacks client_id or client_id_issued_at");
        }
        return new RegisteredClient(entry.path("client_id").asText(), entry.path("client_secret_sha256").asText(""),
                Instant.ofEpochSecond(entry.path("client_id_issued_at").asLong()),
                new ClientMetadata(texts(entry.path("redirect_uris")), entry.path("client_name").asText(""),
                        entry.path("token_endpoint_auth_method").asText(""), texts(entry.path("grant_types")),
                        texts(entry.path("response_types")), entry.path("scope").asText("")));
    }

    private static List<String> texts(JsonNode node) {
        List<String> values = new ArrayList<>();
        node.forEach(item -> values.add(item.asText()));
        return values;
    }
}
