/**
 * The audit log of management-plane changes (spec 2.7, 6.2): the event a caller records, the
 * hash-chained entry it becomes, the store behind it and the sinks that receive copies.
 */
package dev.omcp.ports.audit;
