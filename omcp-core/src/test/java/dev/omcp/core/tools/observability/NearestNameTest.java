package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.postmortem.PostmortemReport;
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

    @Test
    void aSourceListingEveryCaseOfAName_getsAtMostThreeOffered_andTheRestCounted() {
        // case variants are each exact, so all are offered; but a hostile source could list hundreds
        Set<String> variants = names("API", "APi", "ApI", "Api", "aPI", "aPi", "apI", "web");
        List<String> meant = NearestName.of("api", variants);
        assertThat(meant).hasSize(7);
        assertThat(NearestName.didYouMean(meant)).isEqualTo(" Did you mean 'API', 'APi' or 'ApI' (and 4 more case variants)?");
        assertThat(NearestName.didYouMean(meant.subList(0, 4))).isEqualTo(" Did you mean 'API', 'APi' or 'ApI' (and 1 more case variant)?");
        assertThat(NearestName.didYouMean(meant.subList(0, 3))).isEqualTo(" Did you mean 'API', 'APi' or 'ApI'?");
        assertThat(NearestName.didYouMeanEach(new java.util.LinkedHashMap<>(java.util.Map.of("apix", meant))))
                .isEqualTo(" Did you mean 'API', 'APi' or 'ApI' (and 4 more case variants) for 'apix'?");
        assertThat(NearestName.shown(meant)).containsExactly("API", "APi", "ApI");
        // the post-mortem words its own offers (it is no tool), with the same cap
        assertThat(PostmortemReport.MAX_DID_YOU_MEAN).isEqualTo(NearestName.MAX_OFFERED);
    }
}
