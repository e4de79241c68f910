package dev.omcp.core.egress;

/** What kind of address a backend resolved to, as far as spec 5.9 cares. */
enum AddressClass {
    PUBLIC("a public address", Rule.ALLOWED),
    PRIVATE("a private address (RFC 1918, unique-local or shared CGNAT space)", Rule.OPT_IN),
    LOOPBACK("a loopback address", Rule.OPT_IN),
    LINK_LOCAL("a link-local address", Rule.NEVER),
    METADATA("a cloud-metadata address", Rule.NEVER),
    MULTICAST("a multicast or broadcast address", Rule.NEVER),
    UNSPECIFIED("the unspecified address", Rule.NEVER),
    RESERVED("a reserved or documentation address", Rule.NEVER);

    enum Rule { ALLOWED, OPT_IN, NEVER }

    private final String description;
    private final Rule rule;

    AddressClass(String description, Rule rule) {
        this.description = description;
        this.rule = rule;
    }

    String description() {
        return description;
    }

    Rule rule() {
        return rule;
    }
}
