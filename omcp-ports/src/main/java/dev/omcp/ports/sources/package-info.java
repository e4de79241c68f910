/**
 * Sources (spec 1.8, 2.17): the backends the gateway queries, how they are stored, and the use
 * cases the management API drives.
 */
package dev.omcp.ports.sources;
