# Runs until it is ended: a tick every fifth of a second.
loop do
  puts "tick"
  sleep 0.2
end
