/** Features the operator's entitlement token grants ({@code scim}, {@code inspect-enforce}; DECISIONS.md "Entitlements"). */
package dev.omcp.ports.entitlements;
