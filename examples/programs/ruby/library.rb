# Late fees for a small library's returned loans, in integer cents: a book
# kept past its 14 days costs 25 cents for each day late, and the fee stops
# growing at 500 cents (the cap).
#
# Known bug (on purpose): Loan#days_late counts the due day itself as a day
# late (`kept - LOAN_DAYS + 1`), so every late loan is charged one day more
# than it should be, and a book returned on its due day is charged too.

LOAN_DAYS = 14
FEE_PER_DAY_CENTS = 25
FEE_CAP_CENTS = 500
EXPECTED_FEES_CENTS = 650 # 75 + 0 + 500 + 75

class Loan
  attr_reader :title, :kept

  def initialize(title, kept)
    @title = title
    @kept = kept
  end

  def days_late
    late = kept - LOAN_DAYS + 1 # BUG: the due day itself is not late
    late.positive? ? late : 0
  end

  def fee_cents
    [days_late * FEE_PER_DAY_CENTS, FEE_CAP_CENTS].min
  end
end

class Ledger
  def initialize(loans)
    @loans = loans
    @charged = 0
  end

  def charge_all
    @loans.each do |loan|
      fee = loan.fee_cents
      @charged += fee
      puts format("%-12s kept %2d days: %3d cents", loan.title, loan.kept, fee)
    end
    @charged
  end
end

loans = [
  Loan.new("Dune", 17),
  Loan.new("Emma", 14),
  Loan.new("Ulysses", 40),
  Loan.new("Walden", 17),
]
total = Ledger.new(loans).charge_all
puts "fees: #{total} cents (expected #{EXPECTED_FEES_CENTS})"
exit(total == EXPECTED_FEES_CENTS ? 0 : 13)
