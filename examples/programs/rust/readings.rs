//! Averages 1,000 sensor readings, skipping dropouts (a reading of 0).
//! Bug: a dropout is still counted, so the average is taken over too many readings.

fn main() {
    let mut total: i64 = 0;
    let mut count: i64 = 0;
    for i in 0..1000i64 {
        let reading = (i * 37) % 101;
        total += reading;
        count += 1;
    }
    println!("average {} over {} readings", total / count, count);
    std::process::exit(if count == 990 { 0 } else { 12 });
}
