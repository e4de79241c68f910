package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spec 5.6 and DECISIONS.md "Names": the SCIM directory in a file (default) or in Redis, shared by replicas. */
class ScimSettingsTest {
    private static final String PASSWORD = "s3cret-pw-never-shown";

    private static Settings.Scim read(Map<String, String> env) throws InvalidSettingsException {
        return SettingsReader.read(env).scim();
    }

    @Test
    void byDefault_theDirectoryIsTheFileTmpScimJson() throws Exception {
        Settings.Scim scim = read(Map.of());
        // spec 5.6: OMCP_SCIM_STORE defaults to /tmp/scim.json, the file backend is the default
        assertThat(scim.store()).isEqualTo(Path.of("/tmp/scim.json"));
        assertThat(scim.redisUrl()).isEmpty();
        assertThat(read(Map.of("OMCP_SCIM_BACKEND", "File")).redisUrl()).isEmpty();
    }

    @Test
    void theRedisBackend_andItsAliasStore_keepTheDirectoryAtTheRedisUrl_orItsAlias() throws Exception {
        assertThat(read(Map.of("OMCP_SCIM_BACKEND", "redis", "OMCP_SCIM_REDIS_URL", "redis://10.0.0.7:6379/2")).redisUrl())
                .contains("redis://10.0.0.7:6379/2");
        // spec 5.6 spells it OMCP_SCIM_BACKEND=store with OMCP_SCIM_STORE_URL
        assertThat(read(Map.of("OMCP_SCIM_BACKEND", "Store", "OMCP_SCIM_STORE_URL", "rediss://redis.internal:6380")).redisUrl())
                .contains("rediss://redis.internal:6380");
        assertThat(read(Map.of("OMCP_SCIM_BACKEND", "store", "OMCP_SCIM_REDIS_URL", "redis://a:1", "OMCP_SCIM_STORE_URL",
                "redis://a:1")).redisUrl()).as("the same value under both names").contains("redis://a:1");
    }

    @Test
    void aRedisBackendWithoutAUrl_isRefused_sayingWhichVariableToSet() {
        assertThatThrownBy(() -> read(Map.of("OMCP_SCIM_BACKEND", "redis")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).singleElement()
                        .satisfies(problem -> assertThat(problem).startsWith("OMCP_SCIM_BACKEND is redis, which keeps the SCIM"
                                + " directory in Redis, but OMCP_SCIM_REDIS_URL (alias OMCP_SCIM_STORE_URL) is not set")
                                .contains("unset OMCP_SCIM_BACKEND to keep the directory in OMCP_SCIM_STORE")));
        assertThatThrownBy(() -> read(Map.of("OMCP_SCIM_BACKEND", "store")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).singleElement()
                        .satisfies(problem -> assertThat(problem).startsWith("OMCP_SCIM_BACKEND is store,")));
    }

    @Test
    void aUrlWithTheFileBackend_isRefused_withoutShowingIt() {
        for (String name : new String[] {"OMCP_SCIM_REDIS_URL", "OMCP_SCIM_STORE_URL"}) {
            assertThatThrownBy(() -> read(Map.of(name, "redis://:" + PASSWORD + "@10.0.0.7:6379")))
                    .isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
                        assertThat(e.problems()).singleElement().satisfies(problem -> assertThat(problem)
                                .startsWith("OMCP_SCIM_REDIS_URL is set, but OMCP_SCIM_BACKEND is file (the default)")
                                .contains("set OMCP_SCIM_BACKEND=redis"));
                        assertThat(e.getMessage()).doesNotContain(PASSWORD);
                    });
        }
        assertThatThrownBy(() -> read(Map.of("OMCP_SCIM_BACKEND", "file", "OMCP_SCIM_REDIS_URL", "redis://10.0.0.7:6379")))
                .isInstanceOf(InvalidSettingsException.class);
    }

    @Test
    void aUrlThatIsNotRedis_isRefused_withoutShowingIt() {
        for (String url : new String[] {"http://:" + PASSWORD + "@10.0.0.7:6379", "10.0.0.7:6379", "redis:/" + PASSWORD}) {
            assertThatThrownBy(() -> read(Map.of("OMCP_SCIM_BACKEND", "redis", "OMCP_SCIM_REDIS_URL", url)))
                    .isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
                        assertThat(e.problems()).as(url).containsExactly("OMCP_SCIM_REDIS_URL must be"
                                + " redis://[user:password@]host:port[/database] or rediss://... for TLS (the value is not shown: it"
                                + " may hold a password)");
                        assertThat(e.getMessage()).doesNotContain(PASSWORD);
                    });
        }
    }

    @Test
    void anUnknownBackend_isRefused_once_evenWithAUrlSet() {
        assertThatThrownBy(() -> read(Map.of("OMCP_SCIM_BACKEND", "postgres", "OMCP_SCIM_REDIS_URL", "redis://10.0.0.7:6379")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems())
                        .containsExactly("OMCP_SCIM_BACKEND must be one of file, redis, store, got 'postgres'"));
    }

    @Test
    void aUrlUnderBothNames_withDifferentValues_isRefused_withoutShowingEither() {
        assertThatThrownBy(() -> read(Map.of("OMCP_SCIM_BACKEND", "redis", "OMCP_SCIM_REDIS_URL", "redis://:" + PASSWORD + "@a:1",
                "OMCP_SCIM_STORE_URL", "redis://b:2")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
                    assertThat(e.problems()).singleElement().satisfies(problem -> assertThat(problem)
                            .startsWith("OMCP_SCIM_REDIS_URL and its alias OMCP_SCIM_STORE_URL are both set, to different values"));
                    assertThat(e.getMessage()).doesNotContain(PASSWORD);
                });
    }

    @Test
    void theSettingsPrintNeitherTheTokensNorTheRedisUrl() throws Exception {
        Settings.Scim scim = read(Map.of("OMCP_SCIM_BACKEND", "redis", "OMCP_SCIM_REDIS_URL", "redis://:" + PASSWORD + "@10.0.0.7:6379",
                "OMCP_SCIM_TOKEN", "scim-token-not-shown"));
        assertThat(scim.toString()).contains("backend=redis").doesNotContain(PASSWORD).doesNotContain("10.0.0.7")
                .doesNotContain("scim-token-not-shown");
    }
}
