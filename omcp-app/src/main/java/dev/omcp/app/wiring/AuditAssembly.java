package dev.omcp.app.wiring;

import dev.omcp.adapters.storage.audit.AuditSinks;
import dev.omcp.adapters.storage.audit.JsonlAuditLog;
import dev.omcp.app.settings.AuditSettings;
import dev.omcp.core.audit.AuditChain;
import dev.omcp.core.audit.MemoryAuditLog;
import dev.omcp.ports.audit.AuditLog;
import dev.omcp.ports.audit.AuditSink;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the audit chain from its settings: the file or the memory ring, and the sinks. */
final class AuditAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(AuditAssembly.class);

    private AuditAssembly() {}

    /**
     * Opens the store, builds the sinks and starts the chain.
     *
     * @throws RuntimeException when the audit file cannot be opened or its tip does not verify;
     *     the gateway then refuses to start rather than run without its audit log
     */
    static AuditChain start(AuditSettings settings, Clock clock) {
        AuditLog log = settings.file()
                .<AuditLog>map(file -> new JsonlAuditLog(file,
                        new JsonlAuditLog.Options(settings.fsync(), settings.fsyncInterval(), settings.tornTail())))
                .orElseGet(MemoryAuditLog::new);
        List<AuditSink> sinks = new ArrayList<>();
        settings.webhook().ifPresent(webhook -> {
            sinks.add(AuditSinks.webhook(webhook.url(), webhook.token(), webhook.deadLetter(), AuditSinks.webhookDefaults(), clock));
            LOG.info("event=audit-sink-configured sink=webhook deadLetter={}", webhook.deadLetter().map(Object::toString).orElse("log only"));
        });
        settings.s3().ifPresent(s3 -> {
            sinks.add(AuditSinks.objectStorage(s3.endpoint(), s3.bucket(), s3.prefix(), s3.region(), s3.accessKeyId(),
                    s3.secretAccessKey(), s3.deadLetter(), AuditSinks.objectStorageDefaults(s3.batchSize(), s3.flushInterval()),
                    clock));
            LOG.info("event=audit-sink-configured sink=s3 bucket={} prefix={} deadLetter={}", s3.bucket(), s3.prefix(),
                    s3.deadLetter().map(Object::toString).orElse("log only"));
        });
        AuditChain chain = new AuditChain(log, sinks, clock);
        try {
            return chain.start();
        } catch (RuntimeException e) {
            sinks.forEach(AuditSink::close);
            throw e;
        }
    }
}
