# An exception that is rescued (no stop), then one nothing rescues (the stop).
def halve(count)
  raise ArgumentError, "cannot halve #{count}" if count.odd?
  count / 2
end

begin
  halve(3)
rescue ArgumentError
  puts "rescued"
end
puts halve(8)
puts halve(5)
