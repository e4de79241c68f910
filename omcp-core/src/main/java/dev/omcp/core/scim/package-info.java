/**
 * SCIM 2.0 protocol rules (spec 4.5, RFC 7643 and 7644): resource types and their allow-listed
 * attributes, the {@code eq} filters, PatchOp, uniqueness, {@code meta}, and what deprovisioning does.
 * Pure: the store, the clock and the ids come in through ports.
 */
package dev.omcp.core.scim;
