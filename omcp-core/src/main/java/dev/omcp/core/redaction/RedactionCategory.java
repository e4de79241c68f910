package dev.omcp.core.redaction;

/**
 * What the redactor recognises (spec 5.7 and issue 4). Each match is replaced by
 * {@code [REDACTED:<wire name>]}.
 */
public enum RedactionCategory {
    /** An email address. */
    EMAIL("email"),
    /** A dotted-quad IPv4 address. */
    IPV4("ipv4"),
    /** An IPv6 address (full, compressed, with embedded IPv4 or a zone). */
    IPV6("ipv6"),
    /** A JSON Web Token ({@code eyJ...}.{@code eyJ...}.signature, or without the signature), or a JWE (five parts). */
    JWT("jwt"),
    /** The credential of an {@code Authorization: Bearer} header. */
    BEARER_TOKEN("bearer_token"),
    /** AWS access key ids ({@code AKIA...}, {@code ASIA...}) and secret access keys (40 base64 characters). */
    AWS_KEY("aws_key"),
    /** Google Cloud API keys ({@code AIza...}), OAuth client secrets ({@code GOCSPX-...}) and access tokens ({@code ya29.}). */
    GCP_KEY("gcp_key"),
    /** Azure storage account keys, {@code AccountKey=}/{@code SharedAccessKey=} and SAS {@code sig=} values, Entra client secrets. */
    AZURE_KEY("azure_key"),
    /** GitHub tokens ({@code ghp_}, {@code gho_}, {@code ghu_}, {@code ghs_}, {@code ghr_}, {@code github_pat_}). */
    GITHUB_TOKEN("github_token"),
    /** GitLab tokens ({@code glpat-}, {@code gldt-}, {@code glrt-} and the other {@code gl...-} prefixes). */
    GITLAB_TOKEN("gitlab_token"),
    /**
     * A PEM private-key block, from {@code -----BEGIN ... PRIVATE KEY-----} to its end (or the end of
     * the text), the last body lines before an END line whose BEGIN line is elsewhere, a PuTTY key
     * file through its {@code Private-MAC}, or one body line of a key logged apart from its first line.
     */
    PRIVATE_KEY("private_key"),
    /** A payment card number: 13 to 19 digits (grouped by spaces, dashes or dots, mixed too) with a card-network prefix and a valid Luhn check digit. */
    CARD_NUMBER("card_number"),
    /**
     * A value given to a secret-like name ({@code password=}, {@code secret:}, {@code token=},
     * {@code api_key=}, {@code db_pass=}, {@code session=}, a JSON field {@code "client_secret"}, also
     * JSON-escaped, unicode-escaped or URL-encoded up to four layers deep; a word encoded deeper is
     * replaced from there on, unread), cookie values of {@code Cookie} / {@code Set-Cookie} headers,
     * the credential of any {@code Authorization} scheme, credentials in a URL, in
     * {@code curl -u user:password}, after {@code --password}-like options and the short password
     * options of {@code mysql -p…}, {@code 7z -p…}, {@code sshpass -p}, {@code redis-cli -a}, and
     * Slack / Stripe / OpenAI / Anthropic / Hugging Face / npm / PyPI / SendGrid tokens.
     */
    SECRET("secret");

    private final String wireName;
    private final String replacement;

    RedactionCategory(String wireName) {
        this.wireName = wireName;
        this.replacement = "[REDACTED:" + wireName + "]";
    }

    public String wireName() {
        return wireName;
    }

    /** The text a match is replaced with. */
    public String replacement() {
        return replacement;
    }
}
