/** The password policy of the minting helper (spec 5.3); login never re-checks it. */
package dev.omcp.core.auth.password;
