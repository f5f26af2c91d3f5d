use super::*;

#[test]
fn hand_over_by_count() {
    let rows = [384, 256, 128];
    assert_eq!(one_stream_below(0, rows), 0);
    assert_eq!(one_stream_below(1, rows), 384);
    assert_eq!(one_stream_below(4, rows), 384);
    assert_eq!(one_stream_below(5, rows), 256);
    assert_eq!(one_stream_below(8, rows), 256);
    assert_eq!(one_stream_below(9, rows), 128);
    assert_eq!(one_stream_below(16, rows), 128);
    assert_eq!(one_stream_below(17, rows), 0);
    assert_eq!(one_stream_below(4, [0; 3]), 0);
}
