/** The audit trail of the management plane: one event per mutating request (spec 2.7, 6.2). */
package dev.omcp.ports.audit;
