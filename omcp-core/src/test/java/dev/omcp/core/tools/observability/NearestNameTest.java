package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class NearestNameTest {
    private static Set<String> names(String... names) {
        return new TreeSet<>(List.of(names));
    }

    @Test
    void aNameEqualButForCase_isOffered_beforeAnyTypo() {
        assertThat(NearestName.of("Payments", names("payments", "paymentz", "checkout"))).containsExactly("payments");
        assertThat(NearestName.of("paymnets", names("payments", "checkout"))).containsExactly("payments");
    }

    @Test
    void aKnownName_orNothingClose_orEquallyCloseDifferentNames_getNoSuggestion() {
        assertThat(NearestName.of("payments", names("payments", "Payments"))).as("a known name is exact").isEmpty();
        assertThat(NearestName.of("inventory", names("payments"))).isEmpty();
        assertThat(NearestName.of("carx", names("cart", "card"))).as("two services: a guess would mislead").isEmpty();
        assertThat(NearestName.of("crt", names("cart"))).as("too short to guess a typo").isEmpty();
    }

    @Test
    void namesThatDifferFromEachOtherOnlyInCase_areAllOffered_forTheyAreOneSpellingAndEachIsExact() {
        // two sources spell one service in two cases (a tracing SDK's API beside the cluster's api): naming one
        // would hide the other, naming neither would leave the caller to guess the case
        assertThat(NearestName.of("Api", names("API", "api", "web"))).containsExactly("API", "api");
        assertThat(NearestName.of("paymnets", names("Payments", "payments"))).containsExactly("Payments", "payments");
        assertThat(NearestName.of("carx", names("cart", "Cart", "card"))).as("still two different names").isEmpty();
    }

    @Test
    void didYouMean_namesEveryOffer_orNothing() {
        assertThat(NearestName.didYouMean(List.of())).isEmpty();
        assertThat(NearestName.didYouMean(List.of("api"))).isEqualTo(" Did you mean 'api'?");
        assertThat(NearestName.didYouMean(List.of("API", "api"))).isEqualTo(" Did you mean 'API' or 'api'?");
        assertThat(NearestName.either(List.of("API", "Api", "api"))).isEqualTo("'API', 'Api' or 'api'");
    }
}
