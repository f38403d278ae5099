# A shopping cart whose total is one short: the bug test/test_cart.rb finds.

module Cart
  def self.line_total(price, qty)
    subtotal = price * qty
    return subtotal
  end

  def self.total(items)
    amount = 0
    items.each_with_index do |(price, qty), i|
      # The bug: the last item's quantity is counted one short.
      qty -= 1 if i == items.size - 1
      amount += line_total(price, qty)
    end
    amount
  end
end
