package dev.omcp.adapters.storage.inspect;

import dev.omcp.ports.inspect.ProfileStore.ProfileStoreException;
import java.util.List;

/** The refusal of a profile file that cannot be read whole: every problem found, each with its file and line. */
final class ProfileProblems {
    /** Problems listed in the message; a file of 10,000 broken rules says how many more there are rather than all of them. */
    static final int MAX_LISTED = 50;

    private ProfileProblems() {}

    /** The exception for {@code problems}, each of which names the file, the line and what to change. */
    static ProfileStoreException refusal(List<String> problems) {
        StringBuilder message = new StringBuilder(ProfileFile.SETTING)
                .append(" is invalid, and a profile is used whole or not at all:");
        problems.stream().limit(MAX_LISTED).forEach(problem -> message.append("\n  - ").append(problem));
        if (problems.size() > MAX_LISTED) {
            message.append("\n  - and ").append(problems.size() - MAX_LISTED).append(" more problems of the same file");
        }
        return new ProfileStoreException(message.toString());
    }
}
