package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omcp.ports.identity.AllowLists;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The per-key maps of the agent transport (spec 5.4, DECISIONS.md "Agent transport"): {@code name=value;name=value},
 * lists {@code name=a|b;...}, strict but for the rate map's skips (spec 8).
 */
class PerKeyMapsTest {
    private static final String CI_TOKEN = "ci-token-0123456789abcdef";
    private static final String BOT_TOKEN = "bot-token-0123456789abcdef";
    private static final String KEYS = "ci:" + CI_TOKEN + ",bot:" + BOT_TOKEN;

    private static Settings read(String... pairs) throws InvalidSettingsException {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_API_KEYS", KEYS);
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return SettingsReader.read(env);
    }

    private static List<String> problems(String... pairs) {
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> read(pairs));
        assertThat(e).as("the start is refused").isNotNull();
        assertThat(e.getMessage()).as("no token in any problem").doesNotContain(CI_TOKEN).doesNotContain(BOT_TOKEN);
        return e.problems();
    }

    private static Settings.ApiKeyEntry key(Settings settings, String name) {
        return settings.agent().apiKeys().stream().filter(k -> k.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void withoutMaps_everyKeyIsUnboundAndUnlimited() throws Exception {
        Settings settings = read();

        assertThat(settings.agent().apiKeys()).allSatisfy(k -> {
            assertThat(k.tenant()).isEmpty();
            assertThat(k.allowLists()).isEqualTo(AllowLists.none());
        });
        assertThat(settings.agent().ratePerMinute()).isEmpty();
        assertThat(settings.agent().warnings()).isEmpty();
    }

    @Test
    void eachMap_bindsItsKeys_andKeysWithoutAnEntryStayAsTheyWere() throws Exception {
        Settings settings = read("OMCP_KEY_TENANTS", "ci=acme", "OMCP_KEY_TOOLS", "ci=list_sources|query_logs",
                "OMCP_KEY_SOURCES", "ci=loki|prom-eu", "OMCP_KEY_RATE_PER_MIN", "ci=120;bot=off");

        assertThat(key(settings, "ci").tenant()).isEqualTo("acme");
        assertThat(key(settings, "ci").allowLists().tools()).contains(Set.of("list_sources", "query_logs"));
        assertThat(key(settings, "ci").allowLists().sources()).contains(Set.of("loki", "prom-eu"));
        assertThat(key(settings, "bot").tenant()).isEmpty();
        assertThat(key(settings, "bot").allowLists()).isEqualTo(AllowLists.none());
        assertThat(settings.agent().ratePerMinute()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "ci", new Settings.KeyRate.PerMinute(120), "bot", new Settings.KeyRate.Disabled()));
        assertThat(settings.agent().toString()).doesNotContain(CI_TOKEN);
    }

    @Test
    void blanksAroundEntriesNamesValuesAndItems_andEmptyEntries_areIgnored() throws Exception {
        Settings settings = read("OMCP_KEY_TENANTS", " ; ci = acme ;; bot=globex; ", "OMCP_KEY_TOOLS", "ci= list_sources | query_logs ;",
                "OMCP_KEY_SOURCES", ";bot =  loki|loki  ");

        assertThat(key(settings, "ci").tenant()).isEqualTo("acme");
        assertThat(key(settings, "bot").tenant()).isEqualTo("globex");
        assertThat(key(settings, "ci").allowLists().tools()).contains(Set.of("list_sources", "query_logs"));
        assertThat(key(settings, "bot").allowLists().sources()).as("a name twice is the name once").contains(Set.of("loki"));
    }

    @Test
    void anEntryWithoutEquals_isRefused_withoutShowingIt() {
        assertThat(problems("OMCP_KEY_TOOLS", "ci=list_sources;" + CI_TOKEN)).containsExactly("OMCP_KEY_TOOLS entry 2 must be "
                + "name=value, the name of a key of OMCP_API_KEYS then '=' (the entry is not shown)");
    }

    @Test
    void anEntryWithoutAName_isRefused() {
        assertThat(problems("OMCP_KEY_TENANTS", "=acme")).containsExactly("OMCP_KEY_TENANTS entry 1 has no key name before '='; "
                + "write name=value");
    }

    @Test
    void aNameThatIsNoKey_isRefused_andShownOnlyWhenItCannotBeAToken() {
        assertThat(problems("OMCP_KEY_TENANTS", "ops=acme")).containsExactly("OMCP_KEY_TENANTS entry 1 (key 'ops') names no key of "
                + "OMCP_API_KEYS; use the name of one of its name:token entries");
        // a token pasted in the name's place
        assertThat(problems("OMCP_KEY_SOURCES", CI_TOKEN + "=loki")).containsExactly("OMCP_KEY_SOURCES entry 1 names no key of "
                + "OMCP_API_KEYS (the name is not shown: it may be a token); use the name of one of its name:token entries");
    }

    @Test
    void aKeyNamedTwice_isRefused() {
        assertThat(problems("OMCP_KEY_TOOLS", "ci=list_sources;bot=query_logs;ci=query_metrics")).containsExactly(
                "OMCP_KEY_TOOLS entry 3 (key 'ci') names the same key as entry 1; give each key one entry");
    }

    @Test
    void anEmptyValue_isRefused_ratherThanReadAsNoLimit() {
        assertThat(problems("OMCP_KEY_TENANTS", "ci=", "OMCP_KEY_TOOLS", "ci= ", "OMCP_KEY_SOURCES", "bot=")).containsExactly(
                "OMCP_KEY_TENANTS entry 1 (key 'ci') has nothing after '='; give the tenant, or leave the key out",
                "OMCP_KEY_TOOLS entry 1 (key 'ci') has nothing after '='; give the tools it may use, or leave the key out",
                "OMCP_KEY_SOURCES entry 1 (key 'bot') has nothing after '='; give the sources it may use, or leave the key out");
    }

    @Test
    void anEmptyListItem_isRefused() {
        assertThat(problems("OMCP_KEY_TOOLS", "ci=list_sources||query_logs", "OMCP_KEY_SOURCES", "ci=loki|")).containsExactly(
                "OMCP_KEY_TOOLS entry 1 (key 'ci') has an empty item in its list; separate the names with one '|', with none at either"
                        + " end",
                "OMCP_KEY_SOURCES entry 1 (key 'ci') has an empty item in its list; separate the names with one '|', with none at"
                        + " either end");
    }

    @Test
    void aValueOfOnlySeparators_isRefused_ratherThanReadAsUnset() {
        assertThat(problems("OMCP_KEY_SOURCES", " ; ;")).containsExactly("OMCP_KEY_SOURCES is set but holds no entry, only ';' and "
                + "spaces; give at least one name=value entry, or unset it");
    }

    @Test
    void aSourceNameNoSourceCanHave_isRefused() {
        assertThat(problems("OMCP_KEY_SOURCES", "ci=loki|Prod EU")).containsExactly("OMCP_KEY_SOURCES entry 1 (key 'ci') lists "
                + "'Prod EU', which is not a source name: 1-63 lower-case letters, digits, '.', '_' or '-', starting with a letter or "
                + "digit");
        assertThat(problems("OMCP_KEY_SOURCES", "ci=" + BOT_TOKEN.toUpperCase(java.util.Locale.ROOT))).singleElement()
                .satisfies(p -> assertThat(p).contains("not shown as it may be a token").doesNotContainIgnoringCase(BOT_TOKEN));
    }

    @Test
    void aTenantNoSourceCanBeBoundTo_isRefused_asTenantsAreEverywhere() {
        assertThat(problems("OMCP_KEY_TENANTS", "ci=acme\tcorp")).containsExactly("OMCP_KEY_TENANTS entry 1 (key 'ci') has a tenant "
                + "('acme?corp') that must have at most 256 characters with no control, format or line-separator character (shown as ?)");
        assertThat(problems("OMCP_KEY_TENANTS", "ci=" + "t".repeat(257))).singleElement()
                .satisfies(p -> assertThat(p).contains("a value of 257 characters, not shown"));
    }

    @Test
    void withoutApiKeys_aStrictMapIsRefusedOnce_namingBoth() {
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
                () -> SettingsReader.read(Map.of("OMCP_KEY_TOOLS", "ci=list_sources;bot=query_logs")));

        assertThat(e.problems()).containsExactly("OMCP_KEY_TOOLS is set but OMCP_API_KEYS is not, and it applies only with "
                + "OMCP_API_KEYS; set OMCP_API_KEYS or unset OMCP_KEY_TOOLS");
    }

    @Test
    void whenTheKeysThemselvesAreInvalid_theMapsAreNotRefusedASecondTimeForNamingThem() {
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(Map.of(
                "OMCP_API_KEYS", "ci:short,bot:" + BOT_TOKEN, "OMCP_KEY_TENANTS", "ci=acme")));

        assertThat(e.problems()).singleElement().satisfies(p -> assertThat(p).startsWith("OMCP_API_KEYS entry 1"));
    }

    @Test
    void problemsOfEveryMap_areReportedTogether() {
        assertThat(problems("OMCP_KEY_TENANTS", "ops=acme", "OMCP_KEY_TOOLS", "ci", "OMCP_KEY_SOURCES", "ci=")).hasSize(3);
    }

    // spec 8: "unknown credential falls back to default; non-numeric override is skipped"
    @Test
    void theRateMap_skipsAnUnknownKeyAndABadCount_withOneWarningEach_andTheDefaultApplies() throws Exception {
        Settings settings = read("OMCP_KEY_RATE_PER_MIN", "ops=10;ci=fast;bot=0;" + CI_TOKEN + "=5");

        assertThat(settings.agent().ratePerMinute()).isEmpty();
        assertThat(settings.agent().warnings()).containsExactly(
                "event=key-rate-skipped variable=OMCP_KEY_RATE_PER_MIN entry=1 key=\"ops\" reason=\"names no key of OMCP_API_KEYS\" "
                        + "effect=\"the entry has no effect; each key without an entry of its own keeps the default rate\" fix=\"write"
                        + " the entry as name=count (a key name of OMCP_API_KEYS, a count from 1) or name=off, or remove it\"",
                "event=key-rate-skipped variable=OMCP_KEY_RATE_PER_MIN entry=2 key=\"ci\" reason=\"holds 'fast', which is neither a "
                        + "positive whole number of requests per minute nor one of off, none, unlimited, disabled, false\" effect=\"this"
                        + " key keeps the default rate\" fix=\"write the entry as name=count (a key name of OMCP_API_KEYS, a count "
                        + "from 1) or name=off, or remove it\"",
                "event=key-rate-skipped variable=OMCP_KEY_RATE_PER_MIN entry=3 key=\"bot\" reason=\"holds '0', which is neither a "
                        + "positive whole number of requests per minute nor one of off, none, unlimited, disabled, false\" effect=\"this"
                        + " key keeps the default rate\" fix=\"write the entry as name=count (a key name of OMCP_API_KEYS, a count "
                        + "from 1) or name=off, or remove it\"",
                "event=key-rate-skipped variable=OMCP_KEY_RATE_PER_MIN entry=4 reason=\"names no key of OMCP_API_KEYS\" "
                        + "effect=\"the entry has no effect; each key without an entry of its own keeps the default rate\" fix=\"write"
                        + " the entry as name=count (a key name of OMCP_API_KEYS, a count from 1) or name=off, or remove it\"");
        assertThat(String.join("\n", settings.agent().warnings())).doesNotContain(CI_TOKEN);
    }

    @Test
    void theRateMap_skipsNegativeEmptyAndOverlongCounts_andTakesTheDisableWordsInAnyCase() throws Exception {
        Settings settings = read("OMCP_KEY_RATE_PER_MIN", "ci=-5;bot=");
        assertThat(settings.agent().ratePerMinute()).isEmpty();
        assertThat(settings.agent().warnings()).hasSize(2).last().asString().contains("has nothing after '='");

        assertThat(read("OMCP_KEY_RATE_PER_MIN", "ci=99999999999999999999").agent().warnings()).singleElement().asString()
                .contains("a value of 20 characters, not shown");
        for (String word : List.of("off", "NONE", "Unlimited", "disabled", "false")) {
            assertThat(read("OMCP_KEY_RATE_PER_MIN", "ci=" + word).agent().ratePerMinute())
                    .as(word).containsExactly(Map.entry("ci", new Settings.KeyRate.Disabled()));
        }
        assertThat(read("OMCP_KEY_RATE_PER_MIN", "ci = 1 ").agent().ratePerMinute()).containsExactly(
                Map.entry("ci", new Settings.KeyRate.PerMinute(1)));
    }

    @Test
    void theRateMap_isStillStrictAboutItsForm_whichKeyWasMeantCannotBeTold() {
        assertThat(problems("OMCP_KEY_RATE_PER_MIN", "ci=10;ci=20")).containsExactly("OMCP_KEY_RATE_PER_MIN entry 2 (key 'ci') "
                + "names the same key as entry 1; give each key one entry");
        assertThat(problems("OMCP_KEY_RATE_PER_MIN", "ci:10")).singleElement().asString().contains("must be name=value");
    }

    @Test
    void theRateMap_withoutApiKeys_skipsEveryEntry_ratherThanRefusingTheStart() throws Exception {
        Settings settings = SettingsReader.read(Map.of("OMCP_KEY_RATE_PER_MIN", "ci=10"));

        assertThat(settings.agent().warnings()).singleElement().asString().contains("names no key of OMCP_API_KEYS");
    }

    @Test
    void theProductsMap_isReadLikeTheToolsMap_intoTheKeysAllowLists() throws Exception {
        Settings settings = read("OMCP_KEY_PRODUCTS", " ci = payments | logs ;");

        assertThat(key(settings, "ci").allowLists().products()).contains(Set.of("payments", "logs"));
        assertThat(key(settings, "ci").allowLists().tools()).as("a Product list is no tool list").isEmpty();
        assertThat(UnknownVariables.notSupportedYet(Map.of("OMCP_KEY_PRODUCTS", "ci=payments"))).as("supported now").isEmpty();
    }

    @Test
    void aProductsItemThatIsNoProductId_refusesTheStart() {
        assertThat(problems("OMCP_KEY_PRODUCTS", "ci=payments|Payments!")).singleElement().asString()
                .startsWith("OMCP_KEY_PRODUCTS entry 1 (key 'ci') lists 'Payments!', which is not a Product id");
    }

    @Test
    void rolesAndTheRedactionBypassList_areReadPerKey() throws Exception {
        Settings settings = read("OMCP_KEY_ROLES", "ci=admin|viewer; bot=viewer", "OMCP_KEY_BYPASS_REDACTION", " ci ");

        assertThat(key(settings, "ci").roles()).containsExactlyInAnyOrder("admin", "viewer");
        assertThat(key(settings, "ci").bypassRedaction()).isTrue();
        assertThat(key(settings, "bot").roles()).containsExactly("viewer");
        assertThat(key(settings, "bot").bypassRedaction()).isFalse();
        assertThat(UnknownVariables.notSupportedYet(Map.of("OMCP_KEY_BYPASS_REDACTION", "ci"))).as("supported now").isEmpty();
        assertThat(key(read(), "ci").roles()).as("no roles unless given").isEmpty();
    }

    @Test
    void aBypassListNamingNoKey_anEmptyItem_orAKeyTwice_refusesTheStart_withoutShowingTokens() {
        assertThat(problems("OMCP_KEY_BYPASS_REDACTION", "ci,opz")).singleElement().asString()
                .startsWith("OMCP_KEY_BYPASS_REDACTION item 2 ('opz') names no key of OMCP_API_KEYS");
        assertThat(problems("OMCP_KEY_BYPASS_REDACTION", "ci,,bot")).singleElement().asString().contains("item 2 is empty");
        assertThat(problems("OMCP_KEY_BYPASS_REDACTION", "ci, ci")).singleElement().asString().contains("the same key twice");
        assertThat(problems("OMCP_KEY_BYPASS_REDACTION", CI_TOKEN)).singleElement().asString().contains("not shown")
                .doesNotContain(CI_TOKEN);
    }

    @Test
    void aRoleThatIsNoRoleName_refusesTheStart() {
        assertThat(problems("OMCP_KEY_ROLES", "ci=admin|super user")).singleElement().asString()
                .startsWith("OMCP_KEY_ROLES entry 1 (key 'ci') lists 'super user', which is not a role name");
    }
}
