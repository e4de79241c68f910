package dev.omcp.app.wiring;

import dev.omcp.adapters.storage.audit.AuditSinks;
import dev.omcp.adapters.storage.audit.JsonlAuditLog;
import dev.omcp.app.settings.AuditSettings;
import dev.omcp.connectors.builtin.egress.BackendHostGuard;
import dev.omcp.connectors.builtin.transport.EgressGuardedClients;
import dev.omcp.core.audit.AuditChain;
import dev.omcp.core.audit.MemoryAuditLog;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.ports.audit.AuditLog;
import dev.omcp.ports.audit.AuditSink;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the audit chain from its settings: the file or the memory ring, and the sinks. The sinks
 * send through the gateway's egress-guarded client, so the webhook and the object store follow the
 * rules sources follow (spec 5.9): never a cloud-metadata address, a private or loopback one only
 * with {@code OMCP_ALLOW_PRIVATE_BACKENDS=true}, judged at every connection, no redirects.
 */
final class AuditAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(AuditAssembly.class);

    private AuditAssembly() {}

    /**
     * Opens the store, builds the sinks and starts the chain.
     *
     * @param egress the egress rules ({@code OMCP_ALLOW_PRIVATE_BACKENDS}, {@code OMCP_NAT64_PREFIXES})
     * @throws StartRefusedException when a sink's host resolves to an address the egress rules refuse
     * @throws RuntimeException when the audit file cannot be opened or its tip does not verify;
     *     the gateway then refuses to start rather than run without its audit log
     */
    static AuditChain start(AuditSettings settings, EgressRules egress, Clock clock) {
        settings.webhook().ifPresent(webhook -> OutboundHosts.check("OMCP_AUDIT_WEBHOOK_URL", webhook.url(), egress));
        settings.s3().ifPresent(s3 -> OutboundHosts.check("OMCP_AUDIT_S3_ENDPOINT", s3.endpoint(), egress));
        if (settings.webhook().isPresent() || settings.s3().isPresent()) {
            // the same rules the sources install; set here too because the audit chain starts first
            BackendHostGuard.install(egress);
        }
        AuditLog log = settings.file()
                .<AuditLog>map(file -> new JsonlAuditLog(file,
                        new JsonlAuditLog.Options(settings.fsync(), settings.fsyncInterval(), settings.tornTail())))
                .orElseGet(MemoryAuditLog::new);
        // The chain's own refusals (a file that cannot be opened, a torn tail under refuse, a tip that
        // does not verify) say what is wrong and what to do: an operator's matter, not a stack trace.
        List<AuditSink> sinks = new ArrayList<>();
        settings.webhook().ifPresent(webhook -> {
            sinks.add(AuditSinks.webhook(guardedClient(egress), webhook.url(), webhook.token(), webhook.deadLetter(),
                    AuditSinks.webhookDefaults(), clock));
            LOG.info("event=audit-sink-configured sink=webhook deadLetter={}", webhook.deadLetter().map(Object::toString).orElse("log only"));
        });
        settings.s3().ifPresent(s3 -> {
            sinks.add(AuditSinks.objectStorage(guardedClient(egress), s3.endpoint(), s3.bucket(), s3.prefix(), s3.region(),
                    s3.accessKeyId(), s3.secretAccessKey(), s3.deadLetter(),
                    AuditSinks.objectStorageDefaults(s3.batchSize(), s3.flushInterval()), clock));
            LOG.info("event=audit-sink-configured sink=s3 bucket={} prefix={} deadLetter={}", s3.bucket(), s3.prefix(),
                    s3.deadLetter().map(Object::toString).orElse("log only"));
        });
        AuditChain chain = new AuditChain(log, sinks, clock);
        try {
            return chain.start();
        } catch (UncheckedIOException | IllegalStateException e) {
            sinks.forEach(AuditSink::close);
            throw new StartRefusedException("the audit log cannot be used: " + e.getMessage());
        } catch (RuntimeException e) {
            sinks.forEach(AuditSink::close);
            throw e;
        }
    }

    private static HttpClient guardedClient(EgressRules egress) {
        return EgressGuardedClients.create(egress, AuditSinks.CONNECT_TIMEOUT, AuditSinks.REQUEST_TIMEOUT);
    }
}
