/** A clock tests move by hand, so time rules are tested without sleeping. */
package dev.omcp.testkit.time;
