/**
 * Recorded fakes of backends that cannot run on a build machine. Each replays response shapes of the
 * real API (including its errors), serves on a free loopback port, records the requests it got, and
 * can fail, stall or break on demand.
 */
package dev.omcp.testkit.fakes;
