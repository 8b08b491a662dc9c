package io.dataloc.cli;

/** A problem with the command line or its input, reported as one line and exit status 2. */
final class UsageException extends Exception {
  UsageException(String message) {
    super(message);
  }
}
