/**
 * Management-plane login (spec 5.1-5.3): local users and password hashes, account lockout,
 * signed sessions and their revocation, identities from an OpenID provider, dynamic client
 * registration.
 */
package dev.omcp.ports.auth;
