package dev.omcp.adapters.http.oidc;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.Algorithm;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSObject;
import dev.omcp.sdk.text.BackendText;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The algorithms an ID token of one provider may be signed with: those the provider advertises
 * ({@code id_token_signing_alg_values_supported}) that OMCP verifies, i.e. RSA and EC signatures.
 * OpenID Connect Core 3.1.3.7 step 7 expects RS256 or the algorithm registered for the client;
 * HMAC (keyed with the client secret, or with a public key taken as one) and {@code none} are never
 * accepted. A provider whose document names no algorithm is taken at RS256, the default of OpenID
 * Connect Discovery and Registration (the member is required there and must include RS256).
 */
final class IdTokenAlgorithms {
    private static final String MEMBER = "id_token_signing_alg_values_supported";
    private static final Set<JWSAlgorithm> VERIFIABLE = new LinkedHashSet<>();

    static {
        VERIFIABLE.addAll(JWSAlgorithm.Family.RSA);
        VERIFIABLE.addAll(JWSAlgorithm.Family.EC);
    }

    private final Set<JWSAlgorithm> accepted;
    private final List<String> advertised;

    private IdTokenAlgorithms(Set<JWSAlgorithm> accepted, List<String> advertised) {
        this.accepted = Set.copyOf(accepted);
        this.advertised = List.copyOf(advertised);
    }

    /**
     * The algorithms of a discovery document.
     *
     * @throws OidcException when the member is no list of names, or names no algorithm OMCP verifies
     */
    static IdTokenAlgorithms of(JsonNode discovery) throws OidcException {
        JsonNode member = discovery.path(MEMBER);
        List<String> advertised = new ArrayList<>();
        if (member.isMissingNode() || member.isNull()) {
            advertised.add(JWSAlgorithm.RS256.getName());
        } else if (!member.isArray()) {
            throw new OidcException("the provider's discovery document has an " + MEMBER + " that is not a list of algorithm "
                    + "names; OMCP accepts ID tokens signed with " + names(VERIFIABLE), false);
        } else {
            for (JsonNode name : member) {
                advertised.add(name.isTextual() ? name.asText() : name.toString());
            }
        }
        Set<JWSAlgorithm> accepted = VERIFIABLE.stream()
                .filter(algorithm -> advertised.contains(algorithm.getName()))
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (accepted.isEmpty()) {
            throw new OidcException("the identity provider's " + MEMBER + " lists " + (advertised.isEmpty() ? "" : "only ")
                    + quoted(advertised) + ", and OMCP accepts ID tokens signed only with " + names(VERIFIABLE)
                    + "; have the provider sign this client's ID tokens with RS256 or ES256", false);
        }
        return new IdTokenAlgorithms(accepted, advertised);
    }

    /** What the signature of an ID token may be verified with. */
    Set<JWSAlgorithm> accepted() {
        return accepted;
    }

    /**
     * Refuses an ID token whose header names an algorithm outside {@link #accepted()}, with a message
     * that says which; a token that is not signed at all is left to the signature check, which refuses it.
     */
    void check(String idToken) throws OidcException {
        JWSAlgorithm algorithm;
        try {
            algorithm = JWSObject.parse(idToken).getHeader().getAlgorithm();
        } catch (ParseException e) {
            return;
        }
        if (!accepted.contains(algorithm)) {
            throw new OidcException("the ID token was refused: its signature algorithm " + BackendText.clean(algorithm.getName(), 40)
                    + " is not one the identity provider advertises and OMCP accepts (" + names(accepted)
                    + "; the provider advertises " + quoted(advertised) + ")", false);
        }
    }

    private static String names(Set<? extends Algorithm> algorithms) {
        return algorithms.stream().map(Algorithm::getName).sorted(Comparator.naturalOrder()).collect(Collectors.joining(", "));
    }

    private static String quoted(List<String> names) {
        return names.isEmpty() ? "no algorithm" : BackendText.clean(String.join(", ", names), 200);
    }
}
