package org.partita.client;

/**
 * The encoded call is larger than the server accepts (the
 * {@code max_frame_bytes} it announced at login). Nothing was sent; retrying
 * the same call cannot succeed.
 */
public final class FrameTooLargeException extends PartitaClientException {
  public FrameTooLargeException(String message) {
    super(message);
  }
}
