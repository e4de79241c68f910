package dev.omcp.adapters.storage.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.omcp.adapters.storage.files.JsonSyntaxLocation;
import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.auth.ClientMetadata;
import dev.omcp.ports.auth.ClientRegistrationStore;
import dev.omcp.ports.auth.RegisteredClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Dynamic client registrations in a JSON file ({@code OMCP_OIDC_DCR_STORE}, mode 0600):
 * {@code {"clients": [{client_id, client_secret_sha256, client_id_issued_at, redirect_uris,
 * client_name, token_endpoint_auth_method, grant_types, response_types, scope}]}}. Every save
 * rewrites the file atomically (temp file, fsync, rename) before the client learns its id; the
 * registrations removed to make room go in that same write. Only the SHA-256 of a client secret is
 * stored. The format is that of earlier releases, so a rollback reads it (spec 9 rule 4).
 */
public final class JsonClientRegistrationFile implements ClientRegistrationStore {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /**
     * The largest file read: the gateway keeps at most 1000 registrations, each at most about 23 000
     * characters (10 redirect URIs of 2048, a name, a scope), so even all of them at the largest in
     * three-byte characters stay below 70 MiB.
     */
    static final int MAX_FILE_BYTES = 128 * 1024 * 1024;

    private final Path file;
    private List<RegisteredClient> clients;
    private final ReentrantLock writing = new ReentrantLock();

    private JsonClientRegistrationFile(Path file, List<RegisteredClient> clients) {
        this.file = file;
        this.clients = clients;
    }

    /**
     * Opens the file, creating it (mode 0600) when absent. An existing file is read only when it is
     * a regular file of at most {@link #MAX_FILE_BYTES} bytes of UTF-8 JSON, and narrowed to 0600
     * only after it was read: a wrong path (a directory, a FIFO, another file) is refused untouched.
     *
     * @throws IOException when it exists but cannot be read or is not a registrations file; the
     *     message names the setting, the file and what to do
     */
    public static JsonClientRegistrationFile open(Path file) throws IOException {
        PrivateFiles.refuseLink(file);
        if (!PrivateFiles.exists(file)) {
            PrivateFiles.ensure(file);
            return new JsonClientRegistrationFile(file, new ArrayList<>());
        }
        String text = switch (OperatorTextFile.read(file, MAX_FILE_BYTES)) {
            case OperatorTextFile.Read.Text read -> read.text();
            case OperatorTextFile.Read.Unusable unusable -> throw refused(file, unusable.reason()
                    + "; nothing in it was changed: point OMCP_OIDC_DCR_STORE at the registrations file the gateway writes, or unset it");
        };
        List<RegisteredClient> clients = new ArrayList<>();
        if (!text.isBlank()) {
            JsonNode root;
            try {
                root = MAPPER.readTree(text);
            } catch (JsonProcessingException e) {
                // only the location: the parser's message may quote the file's content
                String where = JsonSyntaxLocation.of(e);
                throw refused(file, "is not valid JSON" + where + "; nothing in it was changed: fix it, or move it away to start"
                        + " with no registrations");
            }
            if (root == null || !root.isObject() || !root.path("clients").isArray()) {
                throw refused(file, "is not a client registrations file ({\"clients\": [...]}); nothing in it was changed: point"
                        + " OMCP_OIDC_DCR_STORE at the registrations file the gateway writes");
            }
            int index = 0;
            for (JsonNode entry : root.path("clients")) {
                index++;
                if (!entry.path("client_id").isTextual() || !entry.path("client_id_issued_at").canConvertToLong()) {
                    throw refused(file, "holds a client registration (number " + index + ") without client_id or client_id_issued_at;"
                            + " fix or remove it");
                }
                clients.add(parse(entry));
            }
        }
        PrivateFiles.restrict(file);
        return new JsonClientRegistrationFile(file, clients);
    }

    private static IOException refused(Path file, String reason) {
        return new IOException("OMCP_OIDC_DCR_STORE " + file + " " + reason);
    }

    @Override
    public void replace(Set<String> removedClientIds, RegisteredClient client) {
        writing.lock();
        try {
            List<RegisteredClient> next = new ArrayList<>(clients.size() + 1);
            clients.stream().filter(kept -> !removedClientIds.contains(kept.clientId())).forEach(next::add);
            next.add(client);
            List<Map<String, Object>> entries = new ArrayList<>();
            next.forEach(c -> entries.add(format(c)));
            PrivateFiles.replace(file, MAPPER.writeValueAsBytes(Map.of("clients", entries)));
            // only once it is on disk: a failed write leaves memory as the file is
            clients = next;
        } catch (IOException e) {
            throw new UncheckedIOException("the client registration could not be written to OMCP_OIDC_DCR_STORE", e);
        } finally {
            writing.unlock();
        }
    }

    @Override
    public List<RegisteredClient> registrations() {
        writing.lock();
        try {
            return List.copyOf(clients);
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

    private static RegisteredClient parse(JsonNode entry) {
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
