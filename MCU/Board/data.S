// The harness's data, linked into the image as it would be into a board's flash: the receiver
// capture and the compiled fence image (paths from scripts/mcu: -DCAPTURE="…" -DIMAGE="…").
// The image is 16-byte aligned: FenceImage reads its 8-byte fields in place.
    .section .rodata.harness_data, "a"
    .balign 16
    .global board_capture_start
board_capture_start:
    .incbin CAPTURE
    .global board_capture_end
board_capture_end:
    .balign 16
    .global board_image_start
board_image_start:
    .incbin IMAGE
    .global board_image_end
board_image_end:
