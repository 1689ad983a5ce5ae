# Judges Terraform constraints as Dependabot's terraform ecosystem does,
# with the real RubyGems (Gem::Requirement, Gem::Version) of the Ruby it
# runs on.
#
# Input, one JSON array a line: [constraint, version, ...]. Output, one
# line each: a letter a version (a allow, r reject, i invalid: the
# requirement is ill-formed, or the version malformed), a tab, and the
# index of the version selected (-1: none). A version is allowed when
# the requirement is satisfied_by? it and it is a candidate: a release, or
# a prerelease when the requirement string matches /\d-[A-Za-z0-9]/. The
# selection is the newest allowed version by Gem::Version#<=> (the first
# of equal versions).
#
# TerraformRequirement and TerraformVersion are transcribed from
# dependabot/dependabot-core (terraform/lib/dependabot/terraform/
# requirement.rb and version.rb, and wants_prerelease? and
# latest_version_for_registry_dependency of update_checker.rb), read at
# commit 54c10285aafe229d2e8e2708c1c716d6a0a534f8, without Sorbet's
# signatures and Dependabot's base classes, which add nothing to these
# calls.
require "json"
require "rubygems"

class TerraformVersion < Gem::Version
  def initialize(version)
    @version_string = version.to_s
    version = version.gsub(/^v/, "") if version.is_a?(String)
    version = version.split("+").first if version.is_a?(String) && version.include?("+")
    super(version)
  end

  def to_s
    @version_string
  end
end

class TerraformRequirement < Gem::Requirement
  OPERATORS = OPS.keys.map { |key| Regexp.quote(key) }.join("|").freeze
  PATTERN_RAW = "\\s*(#{OPERATORS})?\\s*v?(#{Gem::Version::VERSION_PATTERN})\\s*".freeze
  PATTERN = /\A#{PATTERN_RAW}\z/

  def self.parse(obj)
    return ["=", TerraformVersion.new(obj.to_s)] if obj.is_a?(Gem::Version)

    unless (matches = PATTERN.match(obj.to_s))
      raise Gem::Requirement::BadRequirementError, "Illformed requirement [#{obj.inspect}]"
    end

    return DefaultRequirement if matches[1] == ">=" && matches[2] == "0"

    [matches[1] || "=", TerraformVersion.new(matches[2])]
  end

  def initialize(*requirements)
    requirements = requirements.flatten.flat_map do |req_string|
      req_string.split(",").map(&:strip)
    end

    super(requirements)
  end
end

versions_seen = {}
read_version = lambda do |text|
  versions_seen.fetch(text) do
    versions_seen[text] =
      begin
        TerraformVersion.new(text)
      rescue ArgumentError
        nil
      end
  end
end

$stdout.sync = false
STDIN.each_line do |line|
  constraint, *versions = JSON.parse(line)
  req =
    begin
      TerraformRequirement.new(constraint)
    rescue Gem::Requirement::BadRequirementError, ArgumentError
      nil
    end
  if req.nil?
    $stdout.write("i" * versions.length + "\t-1\n")
    next
  end
  wants_prerelease = constraint.match?(/\d-[A-Za-z0-9]/)
  letters = +""
  best = nil
  best_index = -1
  versions.each_with_index do |text, i|
    v = read_version.call(text)
    if v.nil?
      letters << "i"
      next
    end
    ok = req.satisfied_by?(v) && (!v.prerelease? || wants_prerelease)
    letters << (ok ? "a" : "r")
    next unless ok
    if best.nil? || (best <=> v) < 0
      best = v
      best_index = i
    end
  end
  $stdout.write(letters + "\t" + best_index.to_s + "\n")
end
$stdout.flush
