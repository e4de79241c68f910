/**
 * The hash-chained audit log (spec 2.7, 6.2): sequencing and hashing of entries, the chain's
 * start from a store's tip, offline verification, and the memory ring used when no file is set.
 */
package dev.omcp.core.audit;
